# Found by a probe written while choosing the fuzzer's container rules: `for k in d`
# (and over d.items(), d.values()) iterated a list of the keys taken at the start and
# never noticed the dict changing size, where CPython raises
# RuntimeError("dictionary changed size during iteration").
from typing import Dict, List, Tuple


def add_while_iterating(d: Dict[str, int]) -> List[str]:
    out: List[str] = []
    for k in d:
        out.append(k)
        d[k + "x"] = 1
    return out


def pop_while_iterating_items(d: Dict[str, int]) -> List[str]:
    out: List[str] = []
    for k, v in d.items():
        out.append(k)
        if v > 0:
            d.pop(k)
    return out


def clear_in_last_step(d: Dict[str, int]) -> List[int]:
    out: List[int] = []
    for v in d.values():
        out.append(v)
        if len(out) == 2:
            d.clear()
    return out


def overwrite_is_fine(d: Dict[str, int]) -> List[Tuple[int, str]]:
    out: List[Tuple[int, str]] = []
    for i, k in enumerate(d):
        d[k] = d[k] + i
        out.append((i, k))
    return out


def caught_and_break(d: Dict[int, int]) -> int:
    n = 0
    try:
        for k in d:
            n += 1
            d[k + 100] = k
    except RuntimeError as e:
        n = -n if "changed size" in str(e) else 0
    for k in d:
        d[k + 1000] = 0
        break
    return n + len(d)


CASES = [("add_while_iterating", ({"a": 1},)), ("pop_while_iterating_items", ({"a": 1, "b": 0},)),
         ("clear_in_last_step", ({"a": 1, "b": 2},)), ("clear_in_last_step", ({"a": 1},)),
         ("overwrite_is_fine", ({"a": 1, "b": 2},)), ("caught_and_break", ({1: 1, 2: 2},))]
