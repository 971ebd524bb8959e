from typing import Dict, List, Tuple


def total(base: int, *args: int, scale: int = 1) -> int:
    s = base
    for a in args:
        s += a
    return s * scale + len(args)


def longest(*words: str) -> str:
    best = ""
    for w in words:
        if len(w) > len(best):
            best = w
    return best


def use(xs: List[int], ws: List[str]) -> Tuple[int, int, int, str, str]:
    return total(0, *xs), total(1, *(xs + [10]), scale=2), total(5), longest(*ws), \
        longest("a", "bcd")




def describe(name: str, sep: str = "=", **fields: int) -> str:
    return name + ":" + ",".join(k + sep + str(v) for k, v in fields.items())


def use_kwargs(d: Dict[str, int]) -> Tuple[str, str]:
    return describe("p", **d), describe("q", extra=1, **d)


CASES = [("use", ([1, 2, 3], ["x", "yyy", "zz"])), ("use", ([], [])),
         ("use_kwargs", ({"a": 1, "b": 2},)), ("use_kwargs", ({},)),
         ("use_kwargs", ({"b": 0},))]
