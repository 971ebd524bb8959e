"""print of containers, floats and strings (sep=, end=), and empty displays typed by their
siblings and by the other branch of a conditional, as CompilationUnit sources."""

import torch
CASES = [
('''
def f(x: float):
    print([1.0, 2.5e-7, 1e16, x], (x,), {"a": x, "b": None}, [None, True], (1, "s", [2]))
    print(x, -0.0, float("inf"), 1e-5, 123456789.0, 0.1 + 0.2, sep=" | ", end="!\\n")
    print({3, 1, 2}, {"x": [1, 2]}, [[1.5], []], "a\\tb", repr("q'\\"z"))
    print()
    return x
''', [(2.0,), (1e100,)]),
('''
def f(t: Tensor):
    print(t, t.dtype, t.size(0), [t.sum().item()])
    return t.sum()
''', [(torch.tensor([1.0, 2.0]),)]),
]
CASES += [
('''
def f(n: int):
    a = [[n], [], [n, n]]
    b = {"x": [], "y": [1.5 * n]}
    c = [{}, {"k": n}]
    return a, b, c, [[], []] if n > 100 else [[n]]
''', [(2,)]),
]
