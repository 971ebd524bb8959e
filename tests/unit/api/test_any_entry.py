"""A CompilationUnit's entry with Any parameters is compiled per argument types."""

import numpy as np
import pytest

import ember
from ember import mobile
from ember.errors import CallError

SOURCE = '''
def describe(x: Any, times: int = 1) -> str:
    if isinstance(x, int):
        return "int " + str(x * times)
    if isinstance(x, str):
        return "str " + x * times
    return "other " + str(x)


def count(xs: List[Any]) -> int:
    return len(xs)
'''


def test_each_call_runs_the_instance_for_its_argument_types():
    cu = ember.CompilationUnit(SOURCE)
    assert cu.functions == ["describe", "count"]
    assert cu.describe(3) == "int 3"
    assert cu.describe("ab", 2) == "str abab"
    assert cu.describe("ab", times=3) == "str ababab"
    assert cu.describe([1.5]) == "other [1.5]"
    assert cu.describe(None) == "other None"
    assert cu.count([np.zeros(2), np.ones(1)]) == 2
    assert cu.count([(1, "a")]) == 1


def test_an_instance_is_saved_and_loaded_like_any_entry(tmp_path):
    cu = ember.CompilationUnit(SOURCE)
    inst = cu.describe.instance(7)
    inst.save(tmp_path / "d.ember")
    assert getattr(mobile.load(tmp_path / "d.ember"), inst.entry)(8) == "int 8"


@pytest.mark.parametrize("value, match", [([], "empty list"), ([1, "a"], "mixed list"),
                                          (object(), "cannot pass a object")])
def test_values_without_one_ember_type_are_call_errors(value, match):
    cu = ember.CompilationUnit(SOURCE)
    with pytest.raises(CallError, match=match):
        cu.describe(value)


ITEM_SOURCE = '''
def first(x):
    s = x.item()
    if isinstance(s, int):
        return s + 3
    return 8


def power(x, y):
    return x.item() ** y.item()
'''


def test_an_entry_calling_item_is_compiled_for_the_dtypes_it_is_given(tmp_path):
    cu = ember.CompilationUnit(ITEM_SOURCE)
    assert cu.first(np.array(2)) == 5 and cu.first(np.array(2.5)) == 8
    got = cu.power(np.array(2), np.array(3))
    assert got == 8 and type(got) is int
    assert cu.power(np.array(0.5), np.array(2)) == 0.25
    inst = cu.first.instance(np.array(4, dtype=np.int32))
    inst.save(tmp_path / "f.ember")
    assert getattr(mobile.load(tmp_path / "f.ember"), inst.entry)(np.array(1, dtype=np.int32)) == 4


def test_an_entry_calling_item_keeps_its_plain_compilation_for_other_uses(tmp_path):
    cu = ember.CompilationUnit(ITEM_SOURCE)
    cu.first.save(tmp_path / "plain.ember")  # the plain entry: item() of any tensor a float
    assert mobile.load(tmp_path / "plain.ember").first(np.array(2)) == 8


def test_a_tensor_annotated_parameter_is_compiled_per_dtype_too():
    cu = ember.CompilationUnit('''
def half(x: Tensor, y: torch.Tensor, n: int):
    return x.item() // 2, y.item() * n
''')
    got = cu.half(np.array(7), np.array(1.5), 2)
    assert got == (3, 3.0) and type(got[0]) is int
    assert cu.half(np.array(7.0), np.array(3, dtype=np.int32), 2) == (3.0, 6)
