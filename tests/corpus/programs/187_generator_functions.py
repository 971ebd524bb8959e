from typing import Dict, Generator, Iterator, List, Tuple


def count_up(n: int) -> Iterator[int]:
    i = 0
    while i < n:
        yield i
        i += 1


def logged(n: int, log: List[str]) -> Iterator[int]:
    for i in range(n):
        log.append("gen " + str(i))
        yield i * 10
    log.append("gen done")


def until_negative(xs: List[int]) -> Iterator[int]:
    for x in xs:
        if x < 0:
            return
        yield x


def chained(a: List[int], n: int) -> Iterator[int]:
    yield from a
    yield from count_up(n)
    yield -1


def labelled(n: int) -> Generator[Tuple[int, str], None, None]:
    for i in range(n):
        yield i, "#" + str(i)


def inverses(xs: List[int]) -> Iterator[float]:
    for x in xs:
        yield 1 / x


def shifted(xs: List[int], k: int = 1) -> Iterator[int]:
    add = lambda v: v + k
    for x in xs:
        yield add(x)


class Bag:
    def __init__(self, xs: List[int]):
        self.xs = xs

    def evens(self, limit: int = 100) -> Iterator[int]:
        for x in self.xs:
            if x % 2 == 0 and x < limit:
                yield x

    def __iter__(self) -> Iterator[int]:
        for x in self.xs:
            yield x * 10

    def pairs(self) -> Iterator[Tuple[int, int]]:
        for i, x in enumerate(self):
            yield i, x


def methods(xs: List[int]) -> Tuple[List[int], List[int], List[Tuple[int, int]], bool]:
    b = Bag(xs)
    out: List[int] = []
    for v in b.evens():
        out.append(v)
    return (out + list(b.evens(limit=5)), sorted(b, reverse=True) + [sum(b)],
            list(b.pairs()), any(v > 20 for v in b))


def consumers(n: int) -> Tuple[List[int], int, int, List[int], Dict[int, str], str]:
    return (list(count_up(n)), sum(count_up(n)), max(count_up(n + 1)),
            sorted(count_up(n), reverse=True), dict(labelled(n)),
            "/".join(s for _, s in labelled(n)))


def interleaving(n: int) -> List[str]:
    log: List[str] = []
    for v in logged(n, log):
        log.append("body " + str(v))
        if v >= 10:
            break
    else:
        log.append("else")
    log.append("after")
    return log


def skipping(n: int) -> List[str]:
    log: List[str] = []
    for v in logged(n, log):
        if v == 10:
            continue
        log.append("body " + str(v))
    else:
        log.append("else")
    return log


def any_stops_early(n: int) -> List[str]:
    log: List[str] = []
    found = any(v > 5 for v in logged(n, log))
    log.append(str(found))
    return log


def returning(xs: List[int]) -> List[int]:
    return [x * 2 for x in until_negative(xs)]


def delegating(a: List[int]) -> List[int]:
    return list(chained(a, 2))


def first_big(xs: List[int]) -> int:
    for x in until_negative(xs):
        if x > 2:
            return x
    return -1


def nested(n: int) -> List[int]:
    out: List[int] = []
    for i in count_up(n):
        for j in count_up(i):
            out.append(i * 10 + j)
    return out


def raising(xs: List[int]) -> List[float]:
    out: List[float] = []
    for v in inverses(xs):
        out.append(v)
    return out


def enumerated(n: int) -> List[str]:
    out: List[str] = []
    for i, (k, s) in enumerate(labelled(n), 1):
        out.append(str(i) + s + str(k))
    return out


def keywords(xs: List[int]) -> List[int]:
    return list(shifted(xs)) + list(shifted(k=10, xs=xs))


def last_value(n: int) -> int:
    last = -1
    for last in count_up(n):
        pass
    return last


CASES = [
    ("consumers", (3,)),
    ("consumers", (0,)),
    ("interleaving", (3,)),
    ("interleaving", (1,)),
    ("skipping", (3,)),
    ("any_stops_early", (10,)),
    ("any_stops_early", (0,)),
    ("returning", ([1, 2, -1, 3],)),
    ("delegating", ([7, 8],)),
    ("first_big", ([1, 2, 4, 6],)),
    ("first_big", ([1, -5, 9],)),
    ("nested", (4,)),
    ("raising", ([1, 2, 0, 4],)),
    ("enumerated", (3,)),
    ("keywords", ([1, 2],)),
    ("last_value", (3,)),
    ("last_value", (0,)),
    ("methods", ([1, 2, 4, 6],)),
    ("methods", ([],)),
]
