"""TorchScript checkScript-style cases for containers of tuples and Optional tensors,
exceptions (user classes, nested try / finally, messages with !r) and number formatting;
the programs and inputs are ember's own."""

import torch

CASES = [
('''
def f(d: Dict[int, str]):
    d2 = dict(d)
    d2[9] = "z"
    return sorted(d2.keys()), list(d.items())[0] if d else (0, ""), d2.pop(9), {k: v.upper() for k, v in d.items()}
''', [({1: "a", 2: "b"},), ({},)]),
('''
def f(xs: List[Tuple[str, int]]):
    xs.sort()
    best = max(xs)
    names = [n for n, _ in xs]
    return xs, best, names, dict(xs)
''', [([("b", 2), ("a", 3), ("b", 1)],)]),
('''
def f(x: Optional[Tensor], y: Optional[Tensor] = None):
    if x is None and y is None:
        return torch.zeros(1)
    elif x is None:
        assert y is not None
        return y
    elif y is None:
        return x
    return x + y
''', [(None,), (torch.ones(2),), (None, torch.ones(2)), (torch.ones(2), torch.ones(2))]),
('''
def f(xs: List[Optional[Tensor]]):
    out = torch.zeros(2)
    for x in xs:
        if x is not None:
            out = out + x
    return out
''', [([torch.ones(2), None, torch.ones(2) * 3],)]),
('''
def f(n: int):
    a: List[List[str]] = [[] for _ in range(n)]
    for i in range(n):
        for j in range(i):
            a[i].append(str(j))
    return a, [",".join(r) for r in a], sum([len(r) for r in a])
''', [(4,)]),
('''
def f(x: int):
    try:
        l = [1, 2]
        return l[x]
    except IndexError:
        return -1
''', [(1,), (5,)]),
('''
class MyErr(Exception):
    pass

def f(x: int):
    if x > 2:
        raise MyErr("too big: " + str(x))
    return x
''', [(1,), (3,)]),
('''
def f(x: int):
    try:
        try:
            if x == 0:
                raise ValueError("inner")
            return x
        finally:
            x = x + 10
    except ValueError as e:
        return -x
''', [(0,), (2,)]),
('''
def f(s: str):
    parts = s.split(":")
    if len(parts) != 2:
        raise ValueError(f"bad spec {s!r}: expected one colon")
    k, v = parts
    return k.strip(), int(v)
''', [("a: 3",), ("a:b:c",), ("k:x",)]),
('''
def f(t: Tuple[Tensor, Optional[Tensor]]):
    a, b = t
    if b is None:
        return a.sum()
    return (a * b).sum()
''', [((torch.ones(3), None),), ((torch.ones(3), torch.arange(3.0)),)]),
('''
def f(x: Tensor):
    res: Dict[str, List[Tensor]] = {"pos": [], "neg": []}
    for v in x:
        if bool(v > 0):
            res["pos"].append(v)
        else:
            res["neg"].append(v)
    return len(res["pos"]), len(res["neg"]), torch.stack(res["pos"]) if len(res["pos"]) > 0 else torch.zeros(0)
''', [(torch.tensor([1.0, -2.0, 3.0]),)]),
('''
def f(a: float, b: float):
    return "{:.2f} + {:.2f} = {:.2f}".format(a, b, a + b), "%08.3f|%-8s|%+d" % (a, "x", int(b)), f"{a!s:>8}", f"{'q':*^7}"
''', [(1.005, -2.5)]),
('''
def f(xs: List[int]):
    return [str(x).zfill(3) for x in xs], " ".join([f"{x:02x}" for x in xs]), "|".join(map(str, xs)) if False else "|".join([str(x) for x in xs])
''', [([1, 255, 16],)]),
]
