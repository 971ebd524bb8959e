def from_list(xs: List[int]) -> Tuple[int, ...]:
    return tuple(sorted(set(xs)))


def reads(xs: List[int]) -> Tuple[int, int, bool, str, List[int], int, int]:
    t = tuple(xs)
    u = t + t
    return len(u), u[-1], 2 in t, str(t[1:]), list(t), t.index(xs[0]), t.count(xs[0])


def anagram_groups(words: List[str]) -> Dict[Tuple[str, ...], int]:
    d: Dict[Tuple[str, ...], int] = {}
    for w in words:
        key = tuple(sorted(w))
        d[key] = d.get(key, 0) + 1
    return d


def unpacking(xs: List[int]) -> List[int]:
    t = tuple(x * 2 for x in xs)
    a, *rest = t
    return [a] + rest + sorted(t, reverse=True)


def compare_and_hash(xs: List[int]) -> Tuple[bool, bool, int, bool]:
    t = tuple(xs)
    s = {t, tuple(xs[:1])}
    return t == tuple(xs), t < (9,), len(s), hash(t) == hash(tuple(xs))


def columns(m: List[List[int]]) -> Tuple[List[List[int]], List[int], Tuple[int, ...]]:
    cols = [list(c) for c in zip(*m)]
    sums = [sum(c) for c in zip(*m)]
    return cols, sums, (*m[0], -1)


def pair(xs: List[int]) -> int:
    a, b = tuple(xs)
    return a - b


CASES = [
    ("from_list", ([3, 1, 3],)), ("from_list", ([],)),
    ("reads", ([4, 5, 6],)),
    ("anagram_groups", (["ab", "ba", "c"],)),
    ("unpacking", ([1, 2, 3],)),
    ("compare_and_hash", ([1, 2],)), ("compare_and_hash", ([],)),
    ("columns", ([[1, 2], [3, 4], [5, 6]],)),
    ("pair", ([5, 2],)), ("pair", ([1, 2, 3],)),
]
