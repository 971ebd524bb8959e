from typing import Dict, List, Tuple


def summarize(data: Dict[str, List[Tuple[str, float]]]) -> Dict[str, float]:
    out: Dict[str, float] = {}
    for group, rows in data.items():
        total = 0.0
        for _, value in rows:
            total += value
        out[group] = round(total / len(rows), 3) if rows else 0.0
    return out


CASES = [("summarize", ({"a": [("x", 1.0), ("y", 2.5)], "b": [("z", -1.0)], "c": []},))]
