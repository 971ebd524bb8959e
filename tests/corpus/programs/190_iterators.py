from typing import Dict, List, Tuple


def double(x: int) -> int:
    return 2 * x


def next_values(xs: List[int]) -> Tuple[int, int, int]:
    it = iter(xs)
    a = next(it)
    b = next(it)
    return a, b, next(it, -1)


def rest_after_next(xs: List[int]) -> List[int]:
    it = iter(xs)
    next(it)
    out: List[int] = []
    for x in it:
        out.append(x)
    return out


def exhausted(xs: List[int]) -> int:
    it = iter(xs)
    while True:
        next(it)


def mapped(xs: List[int]) -> List[str]:
    return list(map(str, xs)) + list(map(lambda x: str(x * 10), xs))


def filtered(xs: List[int]) -> List[int]:
    return list(filter(lambda x: x % 2 == 1, xs)) + list(map(double, filter(None, xs)))


def zipped(xs: List[int], ws: List[str]) -> List[Tuple[int, str]]:
    z = zip(xs, ws)
    first = next(z)
    return [first] + list(z)


def enumerated(ws: List[str]) -> List[Tuple[int, str]]:
    e = enumerate(ws, 1)
    next(e)
    return list(e)


def reversed_late(ws: List[str]) -> List[str]:
    r = reversed(ws)
    ws.pop()
    return list(r)


def lazy_map(xs: List[int]) -> List[int]:
    m = map(lambda x: 100 // x, xs)
    out: List[int] = []
    for v in m:
        out.append(v)
    return out


def lazy_sees_appends(xs: List[int]) -> List[int]:
    it = iter(xs)
    xs.append(99)
    return list(it)


def reductions(xs: List[int]) -> Tuple[int, int, List[int]]:
    it = iter(xs)
    return sum(it), sum(map(double, xs)), sorted(map(lambda x: -x, xs))


def ranges(n: int) -> List[int]:
    return list(reversed(range(n))) + list(map(abs, range(-n, 0))) + list(iter(range(2)))


def two_argument_map(a: List[int], b: List[int]) -> List[int]:
    return list(map(lambda x, y: x * y, a, b))


def dict_keys(d: Dict[str, int]) -> List[str]:
    it = iter(d)
    return [next(it)] + sorted(it)


def resumed(xs: List[int]) -> List[int]:
    it = iter(xs)
    out: List[int] = []
    for x in it:
        if x == 3:
            break
        out.append(x)
    out.append(next(it, 0))
    out.extend(list(it))
    return out


def used_up(xs: List[int]) -> Tuple[List[int], List[int]]:
    m = map(double, xs)
    return list(m), list(m)


CASES = [
    ("next_values", ([1, 2],)),
    ("next_values", ([1, 2, 3],)),
    ("rest_after_next", ([1, 2, 3],)),
    ("exhausted", ([1],)),
    ("mapped", ([1, 2],)),
    ("filtered", ([0, 1, 2, 3],)),
    ("zipped", ([1, 2, 3], ["a", "b"])),
    ("zipped", ([], ["a"])),
    ("enumerated", (["x", "y", "z"],)),
    ("reversed_late", (["a", "b", "c"],)),
    ("lazy_map", ([1, 2, 0, 4],)),
    ("lazy_sees_appends", ([1],)),
    ("reductions", ([1, 2],)),
    ("ranges", (3,)),
    ("two_argument_map", ([1, 2, 3], [4, 5])),
    ("dict_keys", ({"b": 1, "a": 2, "c": 3},)),
    ("resumed", ([1, 2, 3, 4, 5],)),
    ("used_up", ([1, 2],)),
]
