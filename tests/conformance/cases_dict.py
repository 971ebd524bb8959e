"""Dicts: methods, construction forms, iteration order, dicts of tensors."""

D = [({"a": 1, "b": 2},), ({},)]

CASES = [
    ('''
def f(d: Dict[str, int]) -> List[int]:
    return [d.get("a", -1), d.setdefault("c", 3), d.pop("b", -2), len(d)]
''', D),
    ('''
def f(d: Dict[str, int]) -> Optional[int]:
    return d.get("a")
''', D),
    ('''
def f(d: Dict[str, int]) -> int:
    return d.pop("z")
''', D),
    ('''
def f(d: Dict[str, int]) -> int:
    return d["z"]
''', D),
    ('''
def f(d: Dict[str, int]) -> Tuple[str, int]:
    return d.popitem()
''', D),
    ('''
def f(d: Dict[str, int]) -> Dict[str, int]:
    d.update({"b": 5, "x": 6})
    d["a"] = 0
    return d
''', D),
    ('''
def f(d: Dict[str, int]) -> Tuple[List[str], List[int], List[Tuple[str, int]]]:
    return list(d.keys()), list(d.values()), list(d.items())
''', D),
    ('''
def f(d: Dict[str, int]) -> List[str]:
    out: List[str] = []
    for k in d:
        out.append(k)
    for k, v in d.items():
        out.append(k + str(v))
    return out
''', D),
    ('''
def f(d: Dict[str, int]) -> List[bool]:
    return ["a" in d, "z" not in d, bool(d)]
''', D),
    ('''
def f(d: Dict[str, int]) -> Dict[str, int]:
    e = d.copy()
    e["q"] = 1
    d.clear()
    return e
''', D),
    ('''
def f(xs: List[str]) -> Dict[str, int]:
    return dict.fromkeys(xs, 0)
''', [(["a", "b"],)]),
    ('''
def f(xs: List[str]) -> Dict[str, int]:
    return {x: i for i, x in enumerate(xs)}
''', [(["a", "b", "a"],)]),
    ('''
def f(a: List[str], b: List[int]) -> Dict[str, int]:
    return dict(zip(a, b))
''', [(["a", "b"], [1, 2])]),
    ('''
def f() -> Dict[str, int]:
    return dict([("x", 1), ("y", 2)])
''', [()]),
    ('''
def f(d: Dict[str, int]) -> Dict[str, int]:
    return dict(d)
''', D),
    ('''
def f() -> Dict[int, float]:
    d = {1: 1.0, 2: 2.0}
    d[3] = 3.5
    del d[1]
    return d
''', [()]),
    ('''
def f() -> Dict[str, Tensor]:
    d = {"w": torch.zeros(2), "b": torch.ones(1)}
    d["w"] += 1
    return d
''', [()]),
    ('''
def f() -> int:
    d = torch.jit.annotate(Dict[str, int], {})
    d["a"] = 1
    return len(d)
''', [()]),
    ('''
def f(d: Dict[int, List[int]]) -> List[int]:
    out: List[int] = []
    for k in sorted(d.keys()):
        out += d[k]
    return out
''', [({3: [1], 1: [2, 3]},)]),
    ('''
def f(d: Dict[str, int]) -> str:
    return str(d)
''', D),
    ('''
def f(a: Dict[str, int], b: Dict[str, int]) -> bool:
    return a == b
''', [({"a": 1}, {"a": 1}), ({"a": 1}, {"a": 2}), ({"a": 1, "b": 2}, {"b": 2, "a": 1})]),
    ('''
def f(d: Dict[str, int]) -> int:
    s = 0
    for v in d.values():
        s += v
    return s
''', D),
    ('''
def f() -> Dict[str, List[int]]:
    d: Dict[str, List[int]] = {}
    d.setdefault("a", []).append(1)
    d.setdefault("a", []).append(2)
    return d
''', [()]),
    ('''
def f(d: Dict[float, str]) -> List[float]:
    return sorted(d)
''', [({2.5: "a", -1.0: "b"},)]),
    ('''
def f(d: Dict[bool, int]) -> int:
    return d[True]
''', [({True: 1, False: 0},)]),
    ('''
def f(d: Dict[Tuple[int, int], str]) -> str:
    return d[(1, 2)]
''', [({(1, 2): "x"},)]),
    ('''
def f() -> Dict[str, int]:
    return dict(a=1, b=2)
''', [()]),
    ('''
def f(d: Dict[str, int]) -> Dict[str, int]:
    return {k: v * 2 for k, v in d.items() if v > 1}
''', D),
    ('''
def f(d: Dict[str, Optional[int]]) -> int:
    v = d["a"]
    if v is None:
        return -1
    return v
''', [({"a": None},), ({"a": 3},)]),
    ('''
def f(d: Dict[str, int]) -> List[str]:
    return list(d)
''', D),
    ('''
def f(d: Dict[str, int]) -> int:
    d.update([("x", 9)])
    return d["x"]
''', D),
    ('''
def f(d: Dict[int, int]) -> Dict[int, int]:
    for k in list(d.keys()):
        if k % 2 == 0:
            d.pop(k)
    return d
''', [({1: 1, 2: 2, 3: 3, 4: 4},)]),
    ('''
def f() -> Dict[str, Dict[str, int]]:
    d: Dict[str, Dict[str, int]] = {"a": {"x": 1}}
    d["a"]["y"] = 2
    return d
''', [()]),
    ('''
def f(d: Dict[str, float]) -> Tuple[str, float]:
    best = ""
    bv = -1.0
    for k, v in d.items():
        if v > bv:
            best, bv = k, v
    return best, bv
''', [({"a": 1.5, "b": 3.0, "c": 2.0},)]),
    ('''
def f(d: Dict[str, int]) -> int:
    return len(d.keys()) + len(d.items()) + len(d.values())
''', D),
    ('''
def f(d: Dict[str, int]) -> List[str]:
    return [k for k in d.keys() if k in d]
''', D),
]
