from typing import Dict, List


def grow(n: int) -> List[str]:
    d = {"a": 1, "b": 2}
    for k in d:
        d[k + "x"] = n
    return list(d)


def shrink_items(n: int) -> List[str]:
    d = {"a": 1, "b": 2}
    for k, v in d.items():
        del d[k]
    return list(d)


def values_then_break(n: int) -> Dict[str, int]:
    d = {"a": 1, "b": 2}
    for v in d.values():
        d["z"] = v + n
        break
    return d


def same_size(n: int) -> Dict[str, int]:
    d = {"a": 1, "b": 2}
    for k in d.keys():
        d[k] = n
    return d


def in_comprehension(n: int) -> List[str]:
    d = {"a": 1}
    return [k for k in d if d.setdefault("n", n) == n]


def zipped(n: int) -> List[str]:
    d = {"a": 1, "b": 2}
    out: List[str] = []
    for i, k in zip(range(n), d):
        out.append(k)
        d.pop(k)
    return out


CASES = [("grow", (1,)), ("shrink_items", (1,)), ("values_then_break", (1,)),
         ("same_size", (7,)), ("in_comprehension", (0,)), ("zipped", (2,)), ("zipped", (0,))]
