from typing import Dict, List


def build(keys: List[str]) -> Dict[str, int]:
    d: Dict[str, int] = {}
    for i, k in enumerate(keys):
        d[k] = i
    d["extra"] = 99
    return d


def ops(d: Dict[str, int]) -> tuple:
    keys = list(d.keys())
    values = list(d.values())
    items = list(d.items())
    got = d.get("a", -1)
    missing = d.get("zzz", -1)
    return (keys, values, items, got, missing, len(d), "a" in d, "q" not in d)


def update(a: Dict[str, int], b: Dict[str, int]) -> Dict[str, int]:
    c = a.copy()
    c.update(b)
    c.setdefault("new", 0)
    c.setdefault("a", 1000)
    popped = c.pop("b", -1)
    c["popped"] = popped
    return c


CASES = [("build", (["x", "y", "x"],)), ("ops", ({"a": 1, "b": 2},)),
         ("update", ({"a": 1, "b": 2}, {"b": 3, "c": 4})), ("update", ({}, {}))]
