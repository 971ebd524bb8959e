"""ember.nn.functional: the eager operator namespace and its schema-driven dispatch
(no torch needed)."""

from __future__ import annotations

import numpy as np
import pytest

import ember.nn.functional as F
from ember import ops
from ember.nn import eager

RNG = np.random.default_rng(0)
X = RNG.standard_normal((3, 4)).astype(np.float32)


def _kernel_calls(monkeypatch, opname):
    """Record the calls of one operator's kernel (replaced in its OpDef)."""
    d = ops.get(opname)
    calls = []
    real = d.kernel

    def spy(*args):
        calls.append(args)
        return real(*args)
    monkeypatch.setattr(d, "kernel", spy)
    for fn in vars(F).values():
        disp = getattr(fn, "__ember_dispatcher__", None)
        if disp is not None:
            disp._plans.clear()
    return calls


def test_every_torch_spelled_operator_is_a_function_with_its_qualname():
    for d in ops.all_ops():
        for q in d.python_names:
            for prefix in ("torch.nn.functional.", "torch."):
                name = q[len(prefix):]
                if q.startswith(prefix) and "." not in name:
                    fn = getattr(F, name)
                    assert fn.__ember_op__ in (f"torch.nn.functional.{name}", f"torch.{name}")
                    assert d in ops.by_python_name(fn.__ember_op__) or \
                        fn.__ember_op__.startswith("torch.nn.functional.")


def test_functional_spelling_wins_over_torch_spelling():
    assert F.relu.__ember_op__ == "torch.nn.functional.relu"
    assert F.tanh.__ember_op__ == "torch.nn.functional.tanh"
    assert F.matmul.__ember_op__ == "torch.matmul"


def test_overload_chosen_by_runtime_types():
    y = RNG.standard_normal((3, 4)).astype(np.float32)
    np.testing.assert_array_equal(F.max(X), X.max())
    values, idx = F.max(X, 1)
    np.testing.assert_array_equal(values, X.max(axis=1))
    np.testing.assert_array_equal(idx, X.argmax(axis=1))
    np.testing.assert_array_equal(F.max(X, y), np.maximum(X, y))
    np.testing.assert_array_equal(F.add(X, y), X + y)
    np.testing.assert_array_equal(F.add(X, 2), X + 2)


def test_keywords_bind_by_schema_names_and_defaults_are_filled(monkeypatch):
    calls = _kernel_calls(monkeypatch, "tensor.linear")
    w = RNG.standard_normal((5, 4)).astype(np.float32)
    out = F.linear(weight=w, input=X)
    assert calls[-1][0] is X and calls[-1][1] is w and calls[-1][2] is None
    np.testing.assert_allclose(out, X @ w.T, rtol=1e-6)
    np.testing.assert_allclose(F.softmax(X, dim=0), np.exp(X) / np.exp(X).sum(0), rtol=1e-5)
    np.testing.assert_array_equal(F.sum(X, keepdim=True, dim=[1]), X.sum(1, keepdims=True))


def test_schema_defaults_are_used(monkeypatch):
    calls = _kernel_calls(monkeypatch, "tensor.leaky_relu")
    F.leaky_relu(X)
    assert calls[-1][1] == 0.01
    calls = _kernel_calls(monkeypatch, "tensor.flatten")
    assert F.flatten(np.zeros((2, 3, 4))).shape == (24,)
    assert calls[-1][1:] == (0, -1)


def test_numbers_follow_the_numeric_tower(monkeypatch):
    calls = _kernel_calls(monkeypatch, "tensor.leaky_relu")
    F.leaky_relu(X, 1)
    assert calls[-1][1] == 1.0 and type(calls[-1][1]) is float
    with pytest.raises(TypeError, match="negative_slope"):
        F.leaky_relu(X, "1")
    with pytest.raises(TypeError, match=r"must be (Optional\[)?int\]?, not float"):
        F.softmax(X, 1.0)


def test_scalar_parameters_keep_the_python_number(monkeypatch):
    calls = _kernel_calls(monkeypatch, "tensor.add_scalar")
    ints = np.arange(4)
    out = F.add(ints, 2)
    assert type(calls[-1][1]) is int and out.dtype == ints.dtype
    assert F.add(ints, 2.5).dtype == np.float32


def test_bare_int_for_int_list_is_packed_and_tuples_become_lists(monkeypatch):
    calls = _kernel_calls(monkeypatch, "tensor.view")
    assert F.reshape(X, 12).shape == (12,)
    assert calls[-1][1] == [12]
    F.reshape(X, (2, 6))
    assert calls[-1][1] == [2, 6] and type(calls[-1][1]) is list
    np.testing.assert_array_equal(F.sum(X, 1), X.sum(1))
    np.testing.assert_array_equal(F.permute(X, (1, 0)), X.T)


def test_dtype_constants_numpy_dtypes_and_types_name_the_kernel_dtype(monkeypatch):
    calls = _kernel_calls(monkeypatch, "tensor.zeros")
    assert F.zeros([2], dtype=F.float64).dtype == np.float64
    assert calls[-1][1] == "float64"
    assert F.zeros([2], dtype=np.dtype("int32")).dtype == np.int32
    assert F.zeros([2], dtype=np.float16).dtype == np.float16
    assert calls[-1][1] == "float16" and type(calls[-1][1]) is str
    assert F.zeros([2]).dtype == np.float32
    assert X.dtype == F.float32 and F.long == "int64" and F.bool == "bool"
    with pytest.raises(TypeError, match="dtype"):
        F.zeros([2], dtype="float32")


def test_numpy_scalars_are_zero_dim_tensors_or_numbers():
    np.testing.assert_array_equal(F.relu(np.float32(-2.0)), np.float32(0.0))
    assert F.softmax(X, np.int64(1)).shape == X.shape


def test_lists_of_tensors():
    np.testing.assert_array_equal(F.cat([X, X], 1), np.concatenate([X, X], 1))
    np.testing.assert_array_equal(F.stack((X, X)), np.stack([X, X]))
    with pytest.raises(TypeError, match="tensors"):
        F.cat([X, 1])


def test_bad_calls_raise_type_errors_naming_the_problem():
    w = np.zeros((5, 4), np.float32)
    with pytest.raises(TypeError, match=r"argument 'weight' \(position 2\) must be Tensor, "
                                        "not int"):
        F.linear(X, 3)
    with pytest.raises(TypeError, match="unexpected keyword argument 'wieght'"):
        F.linear(X, wieght=w)
    with pytest.raises(TypeError, match="missing required argument 'weight'"):
        F.linear(X)
    with pytest.raises(TypeError, match="at most 3 positional"):
        F.linear(X, w, None, 1)
    with pytest.raises(TypeError, match="multiple values for argument 'input'"):
        F.linear(X, w, input=X)
    with pytest.raises(TypeError, match="none of its 3 overloads") as ei:
        F.max(X, "a")
    assert ei.value.args[0].count("max(Tensor self") == 3


def test_unknown_names_say_ember_has_no_such_operator():
    with pytest.raises(AttributeError, match="torch.nn.functional.no_such_op"):
        F.no_such_op  # noqa: B018


def test_plan_is_cached_per_kind_signature():
    disp = F.relu.__ember_dispatcher__
    disp._plans.clear()
    for _ in range(3):
        F.relu(X)
    F.relu(X[0])
    assert len(disp._plans) == 1
    F.relu(np.float32(1.0))
    assert len(disp._plans) == 2


def test_star_import_does_not_shadow_builtins():
    for name in ("max", "min", "sum", "abs", "bool", "int", "float", "round"):
        assert name not in F.__all__
    assert "linear" in F.__all__ and "float32" in F.__all__


def test_kind_of_lists():
    assert eager.kind_of([1, 2.0, True]) == ("seq", "float")
    assert eager.kind_of([[1], [2.5]]) == ("seq", ("seq", "float"))
    assert eager.kind_of([]) == ("seq", "empty")
    assert eager.kind_of([X, 1]) == ("seq", "mixed")
