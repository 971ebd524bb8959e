from typing import Dict, List


def order(n: int) -> List[str]:
    d: Dict[str, int] = {}
    for i in range(n, 0, -1):
        d["k" + str(i)] = i
    d["k2"] = 100
    out: List[str] = []
    for k in d:
        out.append(k + "=" + str(d[k]))
    for k, v in d.items():
        out.append(f"{k}:{v}")
    return out


def invert(d: Dict[str, int]) -> Dict[int, str]:
    return {v: k for k, v in d.items()}


CASES = [("order", (3,)), ("invert", ({"a": 1, "b": 2, "c": 1},))]
