"""PyTorch's test_if_hoisting.py cases (the same expression in both branches of an if,
hoisted or not, around in-place tensor updates), compared with Python's results, as
CompilationUnit sources with the tests' inputs."""

import torch

T1, T2 = torch.Tensor([1]), torch.Tensor([5, 6])

CASES = [
('''
def fn(x: bool, y: int):
    if x:
        z = y + 3
    else:
        z = y + 3
    return z
''', [(True, 1), (False, 2)]),
('''
def fn(x: bool, y: int):
    if x:
        a = y + 3
        b = y * 2
    else:
        b = y * 2
        a = y + 3
    return a, b
''', [(True, 1), (False, 5)]),
('''
def fn(x: bool, y: int):
    if x:
        a = y + 3
        b = y * 2
    else:
        a = y * 2
        b = y + 3
    return a, b
''', [(True, 1), (False, 5)]),
('''
def fn(x: bool, y: int):
    b = 6
    if x:
        a = y + 3
        a = y * 2
    else:
        a = y * 2
        b = y + 3
    return a, b
''', [(True, 1), (False, 5)]),
('''
def fn(x: bool, y: int, z: int):
    if x:
        a = y + 3
    else:
        a = z + 3
    return a
''', [(True, 1, 3), (False, 5, 10)]),
('''
def fn(x: bool, y: torch.Tensor):
    if x:
        y.add_(8)
        a = y + 3
    else:
        a = y + 3
    return a
''', [(True, T1), (False, T2)]),
('''
def fn(x: bool, y: torch.Tensor):
    if x:
        b = 1
        a = y + 3
        y.add_(8)
    else:
        b = 2
        a = y + 3
    c = b + a
    return a
''', [(True, T1), (False, T2)]),
('''
def fn(x: bool, y: torch.Tensor):
    if x:
        a = y + 3
        b = a + y
    else:
        a = y + 3
        b = a + y
    c = b * 2
    return c
''', [(True, T1), (False, T2)]),
]

# test_batch_mm.py: the sums of products the batch_mm pass rewrites, compared by value
MM = [torch.tensor([[1 + x, 2 + x, 3 + x], [4 + x, 5 + x, 6 + x]]) if x % 2 == 0
      else torch.tensor([[1 + x, 2 + x], [3 + x, 4 + x], [5 + x, 6 + x]]) for x in range(8)]
Z = "\n".join(f"    T{i} = torch.zeros((n, n))" for i in range(1, 11))
CASES += [
('''
def test_batch_mm(
    T1: torch.Tensor,
    T2: torch.Tensor,
    T3: torch.Tensor,
    T4: torch.Tensor,
    T5: torch.Tensor,
    T6: torch.Tensor,
    T7: torch.Tensor,
    T8: torch.Tensor,
):
    return (
        torch.mm(T1, T2)
        + torch.mm(T3, T4)
        + torch.mm(T5, T6)
        + torch.mm(T7, T8)
    )
''', [tuple(MM)]),
('''
def test_batch_mm(
    T1: torch.Tensor,
    T2: torch.Tensor,
    T3: torch.Tensor,
    T4: torch.Tensor,
    T5: torch.Tensor,
    T6: torch.Tensor,
    T7: torch.Tensor,
    T8: torch.Tensor,
):
    result = {}
    result["product"] = (
        torch.mm(T1, T2)
        + torch.mm(T3, T4)
        + torch.mm(T5, T6)
        + torch.mm(T7, T8)
    )
    result["constant"] = torch.tensor([42.0])
    return result
''', [tuple(MM)]),
(f'''
def test_batch_mm(n: int):
{Z}
    torch.relu_(T1)
    result = (
        torch.mm(T1, T2)
        + torch.mm(T3, T4)
        + torch.mm(T5, T6)
        + torch.mm(T7, T8)
    )
    return result
''', [(3,)]),
(f'''
def test_batch_mm(n: int):
{Z}
    torch.relu_(T1)
    result = {{}}
    result["no_mutated_parameters"] = (
        torch.mm(T2, T3)
        + torch.mm(T4, T5)
        + torch.mm(T6, T7)
        + torch.mm(T8, T9)
    )
    result["all_parameters"] = (
        torch.mm(T1, T2)
        + torch.mm(T3, T4)
        + torch.mm(T5, T6)
        + torch.mm(T7, T8)
        + torch.mm(T9, T10)
    )
    return result
''', [(2,)]),
(f'''
def test_batch_mm(n: int, use_t1: bool):
{Z}
    if use_t1:
        torch.relu_(T1)
        return (
            torch.mm(T1, T2)
            + torch.mm(T3, T4)
            + torch.mm(T5, T6)
            + torch.mm(T7, T8)
            + torch.mm(T9, T10)
        )
    else:
        return (
            torch.mm(T2, T3)
            + torch.mm(T4, T5)
            + torch.mm(T6, T7)
            + torch.mm(T8, T9)
        )
''', [(2, True), (2, False)]),
(f'''
def test_batch_mm(n: int):
    A = torch.zeros((n, n))
{Z}
    torch.relu_(A)
    result = {{}}
    result["T1"] = torch.mm(A, T1)
    result["T2"] = torch.mm(A, T2)
    result["T3"] = torch.mm(A, T3)
    result["T9"] = torch.mm(A, T9)
    result["T10"] = torch.mm(A, T10)
    return result
''', [(2,)]),
]
