"""PyTorch's test_isinstance.py checkScript cases (torch.jit.isinstance of Any parameters
against container types, in asserts, ifs and while conditions), as CompilationUnit sources
with the tests' inputs."""

import torch

CASES = [
('''
def int_test(x: Any):
    assert torch.jit.isinstance(x, int)
    assert not torch.jit.isinstance(x, float)
''', [(1,)]),
('''
def float_test(x: Any):
    assert torch.jit.isinstance(x, float)
    assert not torch.jit.isinstance(x, int)
''', [(1.0,)]),
('''
def bool_test(x: Any):
    assert torch.jit.isinstance(x, bool)
    assert not torch.jit.isinstance(x, float)
''', [(False,)]),
('''
def list_str_test(x: Any):
    assert torch.jit.isinstance(x, List[str])
    assert not torch.jit.isinstance(x, List[int])
    assert not torch.jit.isinstance(x, Tuple[int])
''', [(["1", "2", "3"],)]),
('''
def list_tensor_test(x: Any):
    assert torch.jit.isinstance(x, List[torch.Tensor])
    assert not torch.jit.isinstance(x, Tuple[int])
''', [([torch.Tensor([1]), torch.Tensor([2]), torch.Tensor([3])],)]),
('''
def dict_str_int_test(x: Any):
    assert torch.jit.isinstance(x, Dict[str, int])
    assert not torch.jit.isinstance(x, Dict[int, str])
    assert not torch.jit.isinstance(x, Dict[str, str])
''', [({"a": 1, "b": 2},)]),
('''
def dict_int_tensor_test(x: Any):
    assert torch.jit.isinstance(x, Dict[int, torch.Tensor])
''', [({2: torch.tensor([2])},)]),
('''
def tuple_test(x: Any):
    assert torch.jit.isinstance(x, Tuple[str, int, str])
    assert not torch.jit.isinstance(x, Tuple[int, str, str])
    assert not torch.jit.isinstance(x, Tuple[str])
''', [(("a", 1, "b"),)]),
('''
def optional_test(x: Any):
    assert torch.jit.isinstance(x, Optional[torch.Tensor])
    assert not torch.jit.isinstance(x, Optional[str])
''', [(torch.ones(3, 3),)]),
('''
def optional_test_none(x: Any):
    assert torch.jit.isinstance(x, Optional[torch.Tensor])
''', [(None,)]),
('''
def list_nested(x: Any):
    assert torch.jit.isinstance(x, List[Dict[str, int]])
    assert not torch.jit.isinstance(x, List[List[str]])
''', [([{"a": 1, "b": 2}, {"aa": 11, "bb": 22}],)]),
('''
def dict_nested(x: Any):
    assert torch.jit.isinstance(x, Dict[str, Tuple[str, str, str]])
    assert not torch.jit.isinstance(x, Dict[str, Tuple[int, int, int]])
''', [({"a": ("aa", "aa", "aa"), "b": ("bb", "bb", "bb")},)]),
('''
def tuple_nested(x: Any):
    assert torch.jit.isinstance(
        x, Tuple[Dict[str, Tuple[str, str, str]], List[bool], Optional[str]]
    )
    assert not torch.jit.isinstance(x, Dict[str, Tuple[int, int, int]])
    assert not torch.jit.isinstance(x, Tuple[str])
    assert not torch.jit.isinstance(x, Tuple[List[bool], List[str], List[int]])
''', [(({"a": ("aa", "aa", "aa"), "b": ("bb", "bb", "bb")}, [True, False, True], None),)]),
('''
def optional_nested(x: Any):
    assert torch.jit.isinstance(x, Optional[List[str]])
''', [(["a", "b", "c"],)]),
('''
def list_tensor_type_true(x: Any):
    assert torch.jit.isinstance(x, List[torch.Tensor])
''', [([torch.rand(3, 3), torch.rand(4, 3)],)]),
('''
def list_tensor_type_false(x: Any):
    assert not torch.jit.isinstance(x, List[torch.Tensor])
''', [([1, 2, 3],)]),
('''
def list_in_if(x: Any):
    if torch.jit.isinstance(x, List[int]):
        assert True
    if torch.jit.isinstance(x, List[str]):
        assert not True
''', [([1, 2, 3],)]),
('''
def list_in_if_else(x: Any):
    if torch.jit.isinstance(x, Tuple[str, str, str]):
        assert True
    else:
        assert not True
''', [(("a", "b", "c"),)]),
('''
def list_in_while_loop(x: Any):
    count = 0
    while torch.jit.isinstance(x, List[Dict[str, int]]) and count <= 0:
        count = count + 1
    assert count == 1
''', [([{"a": 1, "b": 2}, {"aa": 11, "bb": 22}],)]),
('''
def type_refinement(obj: Any):
    hit = False
    if torch.jit.isinstance(obj, List[torch.Tensor]):
        hit = not hit
        for el in obj:
            # perform some tensor operation
            y = el.clamp(0, 0.5)
    if torch.jit.isinstance(obj, Dict[str, str]):
        hit = not hit
        str_cat = ""
        for val in obj.values():
            str_cat = str_cat + val
        assert "111222" == str_cat
    assert hit
''', [([torch.rand(3, 3), torch.rand(4, 3)],), ({"1": "111", "2": "222"},)]),
]
