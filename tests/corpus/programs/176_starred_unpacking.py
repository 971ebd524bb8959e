from typing import List, Tuple


def head_tail(xs: List[int]) -> Tuple[int, List[int]]:
    first, *rest = xs
    return first, rest


def ends(xs: List[str]) -> List[str]:
    first, *mid, last = xs
    mid.append(first)
    return [last] + mid


def tail_only(xs: List[float]) -> List[float]:
    *init, last = xs
    init.append(last * 2.0)
    return init


def from_tuple(t: Tuple[int, int, int, int]) -> List[int]:
    a, *b, c = t
    *d, e = (a, c)
    return b + d + [e]


def in_loop(rows: List[List[int]]) -> List[int]:
    out: List[int] = []
    for k, *vals in rows:
        out.append(k * 100 + len(vals))
    return out


def the_star_is_a_new_list(xs: List[int]) -> List[int]:
    _, *copy = xs
    copy.append(9)
    return xs


CASES = [
    ("head_tail", ([1, 2, 3],)),
    ("head_tail", ([7],)),
    ("head_tail", ([],)),
    ("ends", (["a", "b", "c", "d"],)),
    ("ends", (["a", "b"],)),
    ("ends", (["a"],)),
    ("tail_only", ([1.5, 2.5],)),
    ("tail_only", ([],)),
    ("from_tuple", ((1, 2, 3, 4),)),
    ("in_loop", ([[1, 2, 3], [4], [5, 6]],)),
    ("in_loop", ([[1], []],)),
    ("the_star_is_a_new_list", ([1, 2],)),
]
