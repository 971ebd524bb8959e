"""Lists: methods, builtins, slicing, comparisons, lists of every element type."""

CASES = [
    ('''
def f(xs: List[int]) -> List[int]:
    ys = xs.copy()
    ys.append(1)
    ys.extend([2, 3])
    ys.insert(0, 9)
    ys.insert(-1, 8)
    ys.insert(100, 7)
    ys.remove(2)
    v = ys.pop()
    w = ys.pop(0)
    ys.reverse()
    return ys + [v, w, ys.index(1), ys.count(1)]
''', [([4, 5],), ([],)]),
    ('''
def f(xs: List[int]) -> List[int]:
    xs.sort()
    ys = sorted(xs, reverse=True)
    xs.sort(reverse=True)
    return xs + ys
''', [([3, 1, 2],), ([],)]),
    ('''
def f(xs: List[float]) -> List[float]:
    return [min(xs), max(xs), sum(xs)] if len(xs) > 0 else [0.0]
''', [([1.5, -2.0, 3.0],), ([],)]),
    ('''
def f(xs: List[int]) -> int:
    return min(xs)
''', [([],), ([3, 1],)]),
    ('''
def f(xs: List[int]) -> List[int]:
    return [xs[::2], xs[1::2], xs[::-1], xs[-2:], xs[:-2], xs[5:1:-1], xs[1:100]][2]
''', [([1, 2, 3, 4, 5, 6],)]),
    ('''
def f(xs: List[int]) -> List[List[int]]:
    return [xs[::2], xs[1::2], xs[::-1], xs[-2:], xs[:-2], xs[5:1:-1], xs[1:100], xs[::-2]]
''', [([1, 2, 3, 4, 5, 6],), ([],)]),
    ('''
def f(a: List[int], b: List[int]) -> List[bool]:
    return [a == b, a != b, a < b, a <= b, a > b, a >= b]
''', [([1, 2], [1, 3]), ([1, 2], [1, 2]), ([], [0]), ([2], [1, 5])]),
    ('''
def f(a: List[str]) -> List[str]:
    a.clear()
    a.append("x")
    return a
''', [(["a", "b"],)]),
    ('''
def f(xs: List[int]) -> List[int]:
    del xs[0]
    del xs[-1]
    return xs
''', [([1, 2, 3, 4],)]),
    ('''
def f(xs: List[int]) -> bool:
    return 3 in xs and 4 not in xs
''', [([1, 2, 3],), ([4, 3],)]),
    ('''
def f(xs: List[int]) -> List[int]:
    return xs * 2 + 2 * xs
''', [([1, 2],)]),
    ('''
def f(xs: List[int]) -> List[int]:
    xs += [5]
    xs *= 2
    return xs
''', [([1],)]),
    ('''
def f(xs: List[List[int]]) -> List[int]:
    return [y for x in xs for y in x if y % 2 == 0]
''', [([[1, 2], [3, 4, 6]],)]),
    ('''
def f(n: int) -> List[List[int]]:
    return [[i * j for j in range(n)] for i in range(n)]
''', [(3,)]),
    ('''
def f(xs: List[int]) -> List[Tuple[int, int]]:
    return list(enumerate(xs, 1))
''', [([5, 6],)]),
    ('''
def f(a: List[int], b: List[str], c: List[float]) -> List[Tuple[int, str, float]]:
    return list(zip(a, b, c))
''', [([1, 2, 3], ["a", "b"], [1.0, 2.0, 3.0])]),
    ('''
def f(xs: List[bool]) -> List[bool]:
    return [any(xs), all(xs), bool(xs)]
''', [([True, False],), ([],), ([True],)]),
    ('''
def f(xs: List[int]) -> int:
    s = 0
    for i in range(len(xs) - 1, -1, -1):
        s = s * 10 + xs[i]
    return s
''', [([1, 2, 3],)]),
    ('''
def f(n: int) -> List[int]:
    return list(range(n, 0, -2)) + list(range(0)) + list(range(2, n))
''', [(7,), (0,)]),
    ('''
def f() -> List[int]:
    xs = torch.jit.annotate(List[int], [])
    xs.append(1)
    return xs
''', [()]),
    ('''
def f() -> List[Tensor]:
    xs: List[Tensor] = []
    for i in range(3):
        xs.append(torch.ones(2) * i)
    return xs
''', [()]),
    ('''
def f() -> Tensor:
    xs = [torch.tensor([1.0, 2.0]), torch.tensor([3.0])]
    return torch.cat(xs)
''', [()]),
    ('''
def f(xs: List[str]) -> List[str]:
    xs.sort()
    return xs
''', [(["b", "a", "C"],)]),
    ('''
def f(xs: List[float]) -> List[float]:
    ys = list(xs)
    ys[0] = 100.0
    ys[-1] = -1.0
    return xs + ys
''', [([1.0, 2.0],)]),
    ('''
def f(xs: List[int]) -> int:
    return xs[5]
''', [([1],)]),
    ('''
def f(xs: List[int]) -> int:
    return xs.index(7)
''', [([1],)]),
    ('''
def f(xs: List[int]) -> int:
    return xs.pop()
''', [([],)]),
    ('''
def f(xs: List[int]) -> List[int]:
    xs.remove(9)
    return xs
''', [([1],)]),
    ('''
def f(xs: List[bool]) -> List[bool]:
    xs.append(False)
    xs.sort()
    return xs
''', [([True, False, True],)]),
    ('''
def f(xs: List[Optional[int]]) -> List[int]:
    return [x for x in xs if x is not None]
''', [([1, None, 3],)]),
    ('''
def f(xs: List[int]) -> List[int]:
    xs[1:3] = [9, 9, 9]
    return xs
''', [([1, 2, 3, 4],)]),
    ('''
def f(xs: List[List[int]]) -> List[List[int]]:
    xs.sort()
    return xs
''', [([[2, 1], [1, 5], [1]],)]),
    ('''
def f(xs: List[Tuple[int, str]]) -> List[Tuple[int, str]]:
    return sorted(xs)
''', [([(2, "a"), (1, "b"), (1, "a")],)]),
    ('''
def f(xs: List[float]) -> float:
    return sum(xs) / len(xs)
''', [([1.0, 2.0, 4.0],)]),
    ('''
def f(xs: List[int]) -> int:
    return sum(xs) + sum(xs, 10)
''', [([1, 2],)]),
    ('''
def f(xs: List[int]) -> List[int]:
    return [x for x in reversed(xs)]
''', [([1, 2, 3],)]),
    ('''
def f() -> List[List[int]]:
    a = [[0] * 2] * 2
    a[0][0] = 5
    return a
''', [()]),
    ('''
def f(xs: List[int]) -> List[int]:
    ys = xs
    ys.append(4)
    return xs
''', [([1],)]),
    ('''
def f(xs: List[int]) -> Tuple[int, int]:
    a, b = xs[0], xs[-1]
    return a, b
''', [([1, 2, 3],)]),
    ('''
def f(xs: List[int]) -> int:
    a, b, c = xs
    return a + b * c
''', [([1, 2, 3],), ([1, 2],)]),
    ('''
def f(xs: List[float]) -> List[int]:
    return [int(x) for x in xs] + [round(x) for x in xs]
''', [([1.5, 2.5, -0.5, -1.7],)]),
    ('''
def f(x: int) -> List[int]:
    xs = [1, 2, 3]
    return xs[x:] + xs[:x] + xs[-x:]
''', [(1,), (-1,), (5,)]),
    ('''
def f(xs: List[int]) -> List[int]:
    return sorted(xs)[:2]
''', [([5, 3, 9, 1],)]),
    ('''
def f(xs: List[str]) -> Dict[str, int]:
    d: Dict[str, int] = {}
    for x in xs:
        d[x] = d.get(x, 0) + 1
    return d
''', [(["a", "b", "a"],)]),
    ('''
def f(xs: List[int]) -> List[int]:
    i = 0
    while i < len(xs):
        if xs[i] % 2 == 0:
            xs.pop(i)
        else:
            i += 1
    return xs
''', [([1, 2, 4, 5, 6, 7],)]),
    ('''
def f(xs: List[Tensor]) -> int:
    return len(xs)
''', [([],)]),
    ('''
def f() -> List[float]:
    t = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    return [float(v) for v in t.sum(0).tolist()]
''', [()]),
    ('''
def f(xs: List[int]) -> List[int]:
    return xs[::-1][::2]
''', [([1, 2, 3, 4, 5],)]),
    ('''
def f(a: List[int]) -> int:
    return len([x for x in a if x > 0]) + a.count(0)
''', [([1, -1, 0, 0, 3],)]),
]

CASES += [
    ('''
def f(xs: List[int]) -> Tuple[int, int]:
    return xs.index(2, 1), xs.index(2, -3, 2)
''', [([2, 1, 2],), ([2, 2, 5],), ([2, 1, 3],)]),
]
