"""Printing and formatting tensors: torch's text (print, str, repr, f-strings, %, format)."""

CASES = [
    ('''
def f():
    x = torch.arange(6).reshape(2, 3)
    print(x)
    print(x.float() / 3)
    return str(x.double())
''', [()]),
    ('''
def f():
    x = torch.tensor([1e-6, 1.0, 5e5])
    print(x, x.sum())
    return repr([x, x.int()])
''', [()]),
    ('''
def f(n: int):
    x = torch.ones(n)
    print("value: {}".format(x))
    return f"{x} / {x.sum():.3f} / {x.sum()}", "%s" % (x,)
''', [(3,), (1,)]),
    ('''
def f():
    x = torch.tensor([True, False, True])
    d: Dict[str, Tensor] = {"mask": x, "empty": torch.zeros(0)}
    print(d)
    return str(d)
''', [()]),
    ('''
def f():
    x = torch.arange(2000)
    print(x)
    print(torch.linspace(0, 1, 5))
    return str(x.reshape(40, 50).float())
''', [()]),
]
