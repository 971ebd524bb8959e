from typing import Dict, List


def level3(d: Dict[str, int], k: str) -> int:
    return d[k]


def level2(d: Dict[str, int], k: str) -> int:
    return level3(d, k) * 2


def level1(k: str) -> str:
    d = {"a": 1, "b": 2}
    try:
        return str(level2(d, k))
    except KeyError as e:
        return "missing " + str(e)


def uncaught(xs: List[int], i: int) -> int:
    return level_index(xs, i) + 1


def level_index(xs: List[int], i: int) -> int:
    return xs[i]


CASES = [("level1", ("a",)), ("level1", ("z",)), ("uncaught", ([1, 2], 5)),
         ("uncaught", ([1, 2], 1))]
