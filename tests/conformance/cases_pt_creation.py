"""PyTorch's test_tensor_creation_ops.py checkScript cases (dtypes of randperm,
triu_indices and tril_indices, asserted inside the function), as CompilationUnit sources."""

CASES = [
    ('''
def randperm(x: int):
    perm = torch.randperm(x)
    assert perm.dtype == torch.int64
''', [(3,)]),
    ('''
def randperm(x: int):
    perm = torch.randperm(x, dtype=torch.float)
    assert perm.dtype == torch.float
''', [(3,)]),
    ('''
def triu_indices(rows: int, cols: int):
    indices = torch.triu_indices(rows, cols)
    assert indices.dtype == torch.int64
    return indices
''', [(3, 3), (2, 4)]),
    ('''
def triu_indices(rows: int, cols: int):
    indices = torch.triu_indices(rows, cols, dtype=torch.int32)
    assert indices.dtype == torch.int32
    return indices
''', [(3, 3)]),
    ('''
def tril_indices(rows: int, cols: int):
    indices = torch.tril_indices(rows, cols)
    assert indices.dtype == torch.int64
    return indices
''', [(3, 3), (4, 2)]),
    ('''
def tril_indices(rows: int, cols: int):
    indices = torch.tril_indices(rows, cols, dtype=torch.int32)
    assert indices.dtype == torch.int32
    return indices
''', [(3, 3)]),
    ('''
def f(rows: int, cols: int, off: int):
    return torch.tril_indices(rows, cols, off), torch.triu_indices(rows, cols, offset=off)
''', [(3, 4, 1), (4, 3, -1)]),
]
CASES += [
    ('''
def f(n: int):
    p = torch.randperm(n)
    return p.sort()[0], p.shape
''', [(5,), (0,)]),
]
