"""PyTorch's test_remove_mutation.py cases that compare the scripted function's result
with Python's (in-place tensor ops through views and branches, zero_/fill_, list append,
insert and item assignment, cat/stack of aliased lists), as CompilationUnit sources."""

import torch

CASES = [
('''
def test_not_new_alias(x):
    y = x[0]
    y.add_(2)
    return y
''', [(torch.ones([2, 2]),)]),
('''
def test_no_lowering():
    x = torch.tensor([2, 2])
    x[0] = 3
    return x
''', [()]),
('''
def test_move_before_not_valid():
    y = torch.tensor([2, 2])
    z = y + 2
    y.add_(2)
    return y, z
''', [()]),
('''
def test_successful():
    x = torch.tensor([2, 2])
    x.add_(1)
    x.add_(3)
    y = x + 4
    return x, y
''', [()]),
('''
def test_intermediary_use():
    x = torch.tensor([2, 2])
    x.add_(1)
    y = x + 4
    x.add_(3)
    return x, y
''', [()]),
('''
def foo(x, cond: bool):
    if cond:
        y = x + 5
    else:
        y = x + 2
    y.add_(4)
    return y
''', [(torch.tensor(5), True), (torch.tensor(5), False)]),
('''
def foo(cond: bool):
    li = []
    if cond:
        x = torch.tensor(1)
        li.append(x)
    else:
        x = torch.tensor(2)
    y = x.add_(2)
    return y, li
''', [(True,), (False,)]),
('''
def foo(cond: bool, y):
    if cond:
        x = y
    else:
        x = torch.tensor(2)
    z = x.add_(2)
    return z
''', [(True, torch.tensor(3)), (False, torch.tensor(3))]),
('''
def test_successful():
    x = torch.tensor([2, 2])
    y = torch.tensor([2, 4])
    x.zero_()
    y.fill_(3)
    return x, y
''', [()]),
('''
def test_unsuccessful():
    x = torch.tensor([2, 2])
    y = torch.tensor(4)
    x.fill_(y)
    return x + x
''', [()]),
('''
def successful_remove():
    return [i for i in range(5)]
''', [()]),
('''
def intermediary_use():
    a = [1, 2]
    b = len(a)
    a.append(3)
    return a
''', [()]),
('''
def successful_remove():
    a : List[int] = []
    a.insert(0, 1)
    a.insert(0, 2)
    a.insert(-10, 3)
    a.insert(-9, 4)
    a.insert(10, 5)
    return a
''', [()]),
('''
def out_of_bounds():
    x = [1, 2]
    x[4] = 3
    return x
''', [()]),
('''
def unknown(y: int):
    x = [1, 2]
    x[y] = 3
    return x
''', [(1,), (-2,), (2,)]),
('''
def successful():
    x = [1, 2, 3]
    x[0] = 4
    x[-1] = 0
    return x
''', [()]),
('''
def successful():
    x = [1]
    x[-1] = 3
    return x
''', [()]),
] + [(f'''
def forward():
    x = torch.tensor([1, 2, 3, 4])
    x.add_(3)
    y = [x, x]
    return torch.{op}(y) + 3
''', [()]) for op in ["cat", "stack", "vstack", "hstack", "dstack"]] + [
('''
def test_multiple_uses():
    x = torch.tensor([1, 2, 3, 4])
    x.add_(3)
    y = [x, x]
    return torch.cat(y), y
''', [()]),
]
