from typing import List, Tuple


def total(*args: int) -> int:
    t = 0
    for a in args:
        t += a
    return t


def joined(sep: str, *parts: str) -> str:
    out = ""
    for i in range(len(parts)):
        if i > 0:
            out += sep
        out += parts[i] if i < 2 else parts[-1]
    return out + "|" + str(len(parts))


def join_all(sep: str, *parts: str) -> str:
    return sep.join(parts)


def joins(s: str) -> List[str]:
    t = (s, "z")
    return [join_all(",", s, "y"), join_all("-"), "+".join(t)]


def head(a: float, b: float = 0.5, *rest: float) -> Tuple[float, float, int]:
    return a, b, len(rest)


def pack(*xs: int) -> Tuple[int, ...]:
    return xs


def sums(n: int) -> List[int]:
    return [total(), total(n), total(n, 2, 3)]


def words(s: str) -> str:
    return joined(",", s, "b") + " " + joined("-") + " " + joined("/", s)


def heads(x: float) -> List[Tuple[float, float, int]]:
    return [head(x), head(x, 1.0), head(x, 1.0, 2.0, 3)]


def packed(n: int) -> Tuple[int, ...]:
    return pack(n, n + 1)


def packed_empty(n: int) -> Tuple[int, ...]:
    return pack()


def indexed(n: int) -> int:
    return at_most_two(n) + at_most_two(n, 5) * 10 + at_most_two(n, 5, 6) * 100


def at_most_two(*xs: int) -> int:
    if len(xs) > 2:
        return xs[2]
    return xs[-1] + len(xs)


def out_of_range(n: int) -> int:
    return at_most_two()


CASES = [
    ("sums", (4,)),
    ("words", ("a",)),
    ("joins", ("q",)),
    ("heads", (2.5,)),
    ("packed", (7,)),
    ("packed_empty", (7,)),
    ("indexed", (1,)),
    ("out_of_range", (1,)),
]
