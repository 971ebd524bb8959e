"""PyTorch's test_list_dict.py test_to_list: Tensor.tolist() typed by torch.jit.annotate,
0-D to 3-D, contiguous and transposed, for bool, int, float, double and complex tensors."""

import torch

torch.manual_seed(0)

CASES = [
    ('''
def to_list_bool_0D(x: torch.Tensor) -> bool:
    li = torch.jit.annotate(bool, x.tolist())
    return li
''', [(torch.tensor(False, dtype=torch.bool),)]),
    ('''
def to_list_bool_1D(x: torch.Tensor) -> List[bool]:
    li = torch.jit.annotate(List[bool], x.tolist())
    return li
''', [(torch.tensor([True, False, True, False], dtype=torch.bool),)]),
    ('''
def to_list_bool_2D(x: torch.Tensor) -> List[List[bool]]:
    li = torch.jit.annotate(List[List[bool]], x.tolist())
    return li
''', [(torch.tensor([[True, True, False], [False, True, False]], dtype=torch.bool),)]),
    ('''
def to_list_bool_3D(x: torch.Tensor) -> List[List[List[bool]]]:
    li = torch.jit.annotate(List[List[List[bool]]], x.tolist())
    return li
''', [(torch.tensor([[[True, False], [False, True]], [[True, False], [False, False]]], dtype=torch.bool),), (torch.tensor([[[True, False], [False, True]], [[True, False], [False, False]]], dtype=torch.bool).transpose(0, 1),)]),
    ('''
def to_list_int_0D(x: torch.Tensor) -> int:
    li = torch.jit.annotate(int, x.tolist())
    return li
''', [(torch.tensor(1, dtype=torch.long),)]),
    ('''
def to_list_int_1D(x: torch.Tensor) -> List[int]:
    li = torch.jit.annotate(List[int], x.tolist())
    return li
''', [(torch.tensor([1, 2, 3, 4], dtype=torch.long),)]),
    ('''
def to_list_int_2D(x: torch.Tensor) -> List[List[int]]:
    li = torch.jit.annotate(List[List[int]], x.tolist())
    return li
''', [(torch.tensor([[1, 2, 3], [3, 4, 5]], dtype=torch.long),)]),
    ('''
def to_list_int_3D(x: torch.Tensor) -> List[List[List[int]]]:
    li = torch.jit.annotate(List[List[List[int]]], x.tolist())
    return li
''', [(torch.tensor([[[1, 2], [3, 4]], [[5, 6], [7, 8]]], dtype=torch.long),), (torch.tensor([[[1, 2], [3, 4]], [[5, 6], [7, 8]]], dtype=torch.long).transpose(0, 1),)]),
    ('''
def to_list_float_0D(x: torch.Tensor) -> float:
    li = torch.jit.annotate(float, x.tolist())
    return li
''', [(torch.randn(5, dtype=torch.float)[0],)]),
    ('''
def to_list_float_1D(x: torch.Tensor) -> List[float]:
    li = torch.jit.annotate(List[float], x.tolist())
    return li
''', [(torch.randn(5, dtype=torch.float),)]),
    ('''
def to_list_float_2D(x: torch.Tensor) -> List[List[float]]:
    li = torch.jit.annotate(List[List[float]], x.tolist())
    return li
''', [(torch.randn(5, 6, dtype=torch.float),)]),
    ('''
def to_list_float_3D(x: torch.Tensor) -> List[List[List[float]]]:
    li = torch.jit.annotate(List[List[List[float]]], x.tolist())
    return li
''', [(torch.randn(5, 6, 7, dtype=torch.float),), (torch.randn(5, 6, 7, dtype=torch.float).transpose(0, 1),)]),
    ('''
def to_list_float_0D(x: torch.Tensor) -> float:
    li = torch.jit.annotate(float, x.tolist())
    return li
''', [(torch.randn(5, dtype=torch.double)[0],)]),
    ('''
def to_list_float_1D(x: torch.Tensor) -> List[float]:
    li = torch.jit.annotate(List[float], x.tolist())
    return li
''', [(torch.randn(5, dtype=torch.double),)]),
    ('''
def to_list_float_2D(x: torch.Tensor) -> List[List[float]]:
    li = torch.jit.annotate(List[List[float]], x.tolist())
    return li
''', [(torch.randn(5, 6, dtype=torch.double),)]),
    ('''
def to_list_float_3D(x: torch.Tensor) -> List[List[List[float]]]:
    li = torch.jit.annotate(List[List[List[float]]], x.tolist())
    return li
''', [(torch.randn(5, 6, 7, dtype=torch.double),), (torch.randn(5, 6, 7, dtype=torch.double).transpose(0, 1),)]),
    ('''
def to_list_complex_0D(x: torch.Tensor) -> complex:
    li = torch.jit.annotate(complex, x.tolist())
    return li
''', [(torch.randn(5, dtype=torch.cfloat)[0],)]),
    ('''
def to_list_complex_1D(x: torch.Tensor) -> List[complex]:
    li = torch.jit.annotate(List[complex], x.tolist())
    return li
''', [(torch.randn(5, dtype=torch.cfloat),)]),
    ('''
def to_list_complex_2D(x: torch.Tensor) -> List[List[complex]]:
    li = torch.jit.annotate(List[List[complex]], x.tolist())
    return li
''', [(torch.randn(5, 6, dtype=torch.cfloat),)]),
    ('''
def to_list_complex_3D(x: torch.Tensor) -> List[List[List[complex]]]:
    li = torch.jit.annotate(List[List[List[complex]]], x.tolist())
    return li
''', [(torch.randn(5, 6, 7, dtype=torch.cfloat),), (torch.randn(5, 6, 7, dtype=torch.cfloat).transpose(0, 1),)]),
    ('''
def to_list_complex_0D(x: torch.Tensor) -> complex:
    li = torch.jit.annotate(complex, x.tolist())
    return li
''', [(torch.randn(5, dtype=torch.cdouble)[0],)]),
    ('''
def to_list_complex_1D(x: torch.Tensor) -> List[complex]:
    li = torch.jit.annotate(List[complex], x.tolist())
    return li
''', [(torch.randn(5, dtype=torch.cdouble),)]),
    ('''
def to_list_complex_2D(x: torch.Tensor) -> List[List[complex]]:
    li = torch.jit.annotate(List[List[complex]], x.tolist())
    return li
''', [(torch.randn(5, 6, dtype=torch.cdouble),)]),
    ('''
def to_list_complex_3D(x: torch.Tensor) -> List[List[List[complex]]]:
    li = torch.jit.annotate(List[List[List[complex]]], x.tolist())
    return li
''', [(torch.randn(5, 6, 7, dtype=torch.cdouble),), (torch.randn(5, 6, 7, dtype=torch.cdouble).transpose(0, 1),)]),
]
