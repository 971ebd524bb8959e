# Found by the program fuzzer: cse merged `str(xs)` before and after `xs.append(...)`
# (a pure operator reading a mutable value, merged across a write). The same held for
# tensors written through index_put.
from typing import Dict, List, Tuple


def str_across_append(xs: List[str]) -> List[str]:
    xs.append(str(xs))
    return [str(xs), repr(xs)]


def format_across_setitem(d: Dict[str, int]) -> str:
    a = "{}".format(d)
    d["k"] = 1
    return a + "|" + "{}".format(d) + "|%s" % (d,)


def str_in_loop(xs: List[int], n: int) -> List[str]:
    out: List[str] = [str(xs)]
    for i in range(n):
        out.append(str(xs))
        xs.append(i)
    return out


def tuple_holding_list(t: Tuple[List[int], int]) -> str:
    a = str(t)
    t[0].append(t[1])
    return a + str(t)


def min_of_lists(a: List[int], b: List[int]) -> List[List[int]]:
    m = min(a, b)
    a.clear()
    return [m, min(a, b)]


CASES = [("str_across_append", (["", ""],)), ("format_across_setitem", ({"a": 2},)),
         ("str_in_loop", ([7], 3)), ("tuple_holding_list", (([1], 2),)),
         ("min_of_lists", ([1, 2], [3]))]
