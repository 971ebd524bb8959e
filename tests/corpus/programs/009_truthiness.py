from typing import Dict, List


def truthy(i: int, f: float, s: str, xs: List[int], d: Dict[str, int]) -> list[bool]:
    out: list[bool] = []
    out.append(bool(i))
    out.append(bool(f))
    out.append(bool(s))
    out.append(bool(xs))
    out.append(bool(d))
    if i:
        out.append(True)
    if not s:
        out.append(False)
    while xs:
        xs.pop()
        out.append(True)
    return out


CASES = [("truthy", (0, 0.0, "", [], {})), ("truthy", (3, -0.5, "x", [1, 2], {"a": 1}))]
