"""TorchScript-style programs: unannotated functions, inferred returns, empty literals,
tensor lists, CompilationUnit templates."""

CASES = [
    ('''
def f(xs: List[int]):
    if xs:
        t = 0
        for v in xs:
            t += v
        return t
    else:
        return -1
''', [([4, 5],), ([],)]),
    ('''
def f(xs: List[int]):
    t = 0
    while xs:
        t += xs.pop()
''', [([1, 2],)]),
    ('''
def f(xs: List[int]):
    return "has items" if xs else "nothing"
''', [([1],), ([],)]),
    ('''
def f():
    y = [3]
    if 2 == 2:
        y = [4, 5, 6]
    return
''', [()]),
    ('''
def f():
    z = []
    if 1 == 1:
        z = [torch.ones([2])]
    return len(z)
''', [()]),
    ('''
def f():
    x: List[Optional[int]] = [None, 1]
    y: List[Optional[str]] = [None for _ in range(2)]
    return x, y
''', [()]),
    ('''
def f():
    return list([4, 5]), list(("p", "q")), list(range(3)), list("xyz")
''', [()]),
    ('''
def f():
    a: List[float] = list()
    a.append(2.5)
    return (a,)
''', [()]),
    ('''
def f():
    return list(list("pq"))
''', [()]),
    ('''
def f():
    return dict(p=4, q=5)
''', [()]),
    ('''
def f():
    return dict(p=[1], q=[2, 3])
''', [()]),
    ('''
def f():
    return dict([])
''', [()]),
    ('''
def f():
    return dict({"p": 1}, q=2)
''', [()]),
    ('''
def f():
    return dict({str(i): i for i in range(3)}, z=9)
''', [()]),
    ('''
def f():
    return {}
''', [()]),
    ('''
def f():
    d: Dict[str, float] = dict()
    d["k"] = 1.5
    return d
''', [()]),
    ('''
def f():
    return dict(dict(u=1, v=2))
''', [()]),
    ('''
def f():
    e = {"u": 1}
    return dict(e, w=3)
''', [()]),
    ('''
def f(a: List[int], b: List[int]) -> List[int]:
    return min(a, b)
''', [([1, 9], [2]), ([], [1]), ([3], [3, 0])]),
    ('''
def f(a: List[float], b: List[float]) -> List[float]:
    return max(a, b)
''', [([1.0, 9.0], [2.0]), ([], [])]),
    ('''
def f(a: List[bool], b: List[bool]) -> List[bool]:
    return max(a, b)
''', [([True], [False, True]), ([], [False])]),
    ('''
def f():
    a = [5, 6, 7]
    return a[-4]
''', [()]),
    ('''
def f():
    a = []
    return len(a) == 0
''', [()]),
    ('''
def f():
    p = torch.ones([1, 1])
    q = torch.zeros([1, 1])
    return [p, q] == [p, q], [p, q] == [q, p]
''', [()]),
    ('''
def f():
    p = torch.ones([3])
    return [p] == [p * 2]
''', [()]),
    ('''
def f():
    a = [2.5, 0.5, 1.5]
    b = [2.5, 0.5, 1.5]
    a.sort()
    b.sort(reverse=True)
    return a, b, sorted(b)
''', [()]),
    ('''
def f():
    a = [torch.tensor(3.0), torch.tensor(-1.0), torch.tensor(0.5)]
    a.sort()
    return a
''', [()]),
    ('''
def f():
    a = [torch.tensor(7), torch.tensor(2)]
    b = sorted(a)
    a[0] = torch.tensor(0)
    return a, b
''', [()]),
    ('''
def f(x: List[Tensor]) -> List[Tensor]:
    x.sort()
    return x
''', [()]) if False else ('''
def f():
    a = [0, 1, 2, 3, 4]
    return a[1:2] == [1], a[3:] == [3, 4], a[-3:-1], a[3:1] == torch.jit.annotate(List[int], [])
''', [()]),
    ('''
def f(x):
    return x[:, [0, 1]]
''', [()]) if False else ('''
def f():
    x = torch.arange(12).view(3, 2, 2)
    return x[:, :, [1, 0]], x[[2, 0], :, :], x[[0, 1], :, [1]]
''', [()]),
    ('''
def f():
    li = [int(t) for t in [torch.tensor(4), torch.tensor(5)]]
    return li[0] * li[1]
''', [()]),
    ('''
def f():
    a = [float(i) for i in range(3)]
    c = [(float(i), j) for i, j in enumerate([5, 6])]
    return a, c
''', [()]),
    ('''
def f():
    return [str(i) for i, j in zip("", "")]
''', [()]),
    ('''
def f():
    a = [9]
    a.append(8)
    a = [7]
    a.append(6)
    return a == [7, 6]
''', [()]),
    ('''
def f():
    a = []
    a.reverse()
    return a == []
''', [()]),
    ('''
def f():
    a = [torch.tensor(5), torch.tensor(6)]
    a.reverse()
    return a == [torch.tensor(6), torch.tensor(5)]
''', [()]),
    ('''
def f():
    a = [5, 6, 7, 8]
    a.insert(-20, 1)
    a.insert(20, 2)
    return a
''', [()]),
    ('''
def f():
    a = [torch.tensor(5), torch.tensor(1)]
    return a.index(torch.tensor(1)), a.count(torch.tensor(5))
''', [()]),
    ('''
def f():
    a = [torch.tensor(5), torch.tensor(1)]
    return a.index(torch.tensor(9))
''', [()]),
    ('''
def f(x):
    return x + 1
''', [()]) if False else ('''
def f():
    a = [1, 2]
    b = a.copy()
    b.append(3)
    c = a[:]
    c.append(4)
    return a, b, c
''', [()]),
    ('''
def f():
    a = [torch.tensor(1), torch.tensor(2)]
    a.remove(torch.tensor(1))
    return a
''', [()]),
    ('''
def f():
    a = [1, 2]
    a.extend(a)
    return a
''', [()]),
    ('''
def f():
    a = [[1], [2, 3]]
    return [x for y in a for x in y]
''', [()]),
    ('''
def f():
    return [1, 2] + [3], [1] * 3, 3 * ["a"]
''', [()]),
    ('''
def f():
    x = 1
    return x if x > 0 else -x, not x
''', [()]),
    ('''
def f():
    a = (1, 2, 3)
    b = a[1:]
    return b, a[-1], a[0:3:2]
''', [()]),
    ('''
def f():
    d = {"a": torch.ones(1), "b": torch.zeros(1)}
    return list(d.keys()), len(d.values())
''', [()]),
    ('''
def f():
    l = [1, 2, 3]
    return sum(l), sum([1.5, 2.0]), sum([True, True])
''', [()]),
    ('''
def f():
    l = ["b", "c", "a"]
    return min(l), max(l), sorted(l)
''', [()]),
    ('''
def f(x: Tensor, y: Tensor):
    return x + y, x * y
''', [()]) if False else ('''
def f():
    x = 5
    y = 2.0
    return x / y, x // y, x % y, -x // 2, x ** 2, y ** 2, x ** -1
''', [()]),
]
