def scaled_late_binding(xs: List[int], k: int) -> List[int]:
    def scaled(m: int):
        for x in xs:
            yield x * k * m
    k += 1
    out = [v for v in scaled(2)]
    out.append(sum(scaled(1)))
    return out + list(scaled(3))


def ticks_shared_state(n: int) -> List[int]:
    state = [0]
    def ticks():
        while state[0] < n:
            state[0] += 1
            yield state[0]
    seen: List[int] = []
    for t in ticks():
        if t == 2:
            state[0] += 1
        seen.append(t)
    return seen


def pairs_into_dict(words: List[str]) -> Dict[str, int]:
    def pairs():
        for w in words:
            yield w, len(w)
    return dict(pairs())


def evens_with_return(n: int) -> int:
    limit = 3
    def evens():
        i = 0
        while True:
            if i > limit:
                return
            yield i * 2
            i += 1
    total = 0
    for e in evens():
        total += e
    limit = 10
    return total + max(evens())


def generator_in_nested_def(n: int) -> List[int]:
    def inner(m: int) -> List[int]:
        def gen():
            for i in range(m):
                yield i + n
        return list(gen())
    return inner(3)


def enumerate_and_filter(xs: List[int]) -> List[Tuple[int, int]]:
    def idx():
        for i in range(len(xs)):
            yield i
    return [(i, x) for i, x in enumerate(idx())] + [(x, x) for x in idx() if x > 0]


CASES = [
    ('scaled_late_binding', ([1, 2, 3], 2)),
    ('ticks_shared_state', (6,)),
    ('pairs_into_dict', (['ab', 'c'],)),
    ('evens_with_return', (0,)),
    ('generator_in_nested_def', (10,)),
    ('enumerate_and_filter', ([5, 6, 7],)),
]
