from typing import Dict, List, Tuple


def squares(xs: List[int]) -> int:
    return sum(x * x for x in xs)


def any_positive(xs: List[float]) -> bool:
    return any(v > 0 for v in xs)


def all_divide(xs: List[int]) -> bool:
    # all() stops at the first False: a later 0 is never divided by
    return all(12 // x > 3 for x in xs)


def nested_any(xss: List[List[int]]) -> bool:
    return any(y > 3 for ys in xss for y in ys if y % 2 == 0)


def reductions(xs: List[int]) -> Tuple[int, int, List[int], List[int], str]:
    return (min(x - 1 for x in xs), max((x % 3 for x in xs), default=-1),
            sorted(-x for x in xs), list(x for x in xs if x % 2),
            ",".join(str(x) for x in xs))


def as_dict(xs: List[int]) -> Dict[int, str]:
    return dict((x, str(x) * 2) for x in xs)


def lazy_in_loop(xs: List[int]) -> List[str]:
    log: List[str] = []

    def seen(x: int) -> int:
        log.append("make " + str(x))
        return x

    for v in (seen(x) for x in xs if x != 0):
        log.append("use " + str(v))
        if v > 2:
            break
    else:
        log.append("exhausted")
    return log


def pairs_until(xss: List[List[int]], stop: int) -> List[Tuple[int, int]]:
    out: List[Tuple[int, int]] = []
    for i, y in ((i, y) for i, ys in enumerate(xss) for y in ys):
        if y == stop:
            break
        if y < 0:
            continue
        out.append((i, y))
    return out


def short_circuit_log(xs: List[int]) -> List[str]:
    log: List[str] = []

    def big(x: int) -> bool:
        log.append(str(x))
        return x > 2

    log.append("any=" + str(any(big(x) for x in xs)))
    log.append("all=" + str(all(not big(x) for x in xs)))
    return log


def scoping(xs: List[int]) -> Tuple[int, int]:
    x = 100
    t = sum(x for x in xs)
    return t, x


def enumerated(xs: List[str]) -> List[str]:
    return [str(i) + s for i, s in enumerate((s.upper() for s in xs), 1)]


def with_start(xs: List[int], xss: List[List[int]]) -> Tuple[float, List[int], int]:
    return sum((x / 2 for x in xs), 0.5), sum(xss, []), sum(xs, start=10)


CASES = [
    ("squares", ([1, 2, 3],)),
    ("squares", ([],)),
    ("any_positive", ([-1.0, 2.0],)),
    ("any_positive", ([],)),
    ("all_divide", ([1, 2, 4, 0],)),
    ("all_divide", ([1, 0],)),
    ("nested_any", ([[1], [2, 5], [4]],)),
    ("nested_any", ([[1], [2, 5]],)),
    ("reductions", ([3, 1, 2, 5],)),
    ("reductions", ([],)),
    ("as_dict", ([3, 1],)),
    ("lazy_in_loop", ([1, 0, 3, 4],)),
    ("lazy_in_loop", ([1, 2],)),
    ("pairs_until", ([[1, -2, 3], [4, 9, 5]], 9)),
    ("pairs_until", ([[1], []], 9)),
    ("short_circuit_log", ([1, 3, 5],)),
    ("scoping", ([1, 2],)),
    ("enumerated", (["a", "b"],)),
    ("with_start", ([1, 2], [[1], [], [2, 3]])),
    ("with_start", ([], [])),
]
