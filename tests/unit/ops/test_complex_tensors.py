"""Complex tensors (complex64 / complex128) against torch: compiled functions called with
numpy arrays give torch's values and dtypes; ember's dtype promotion is torch.result_type
for every pair of dtypes and Python scalars; torch's errors keep their types."""

from __future__ import annotations

from typing import List

import numpy as np
import pytest

import ember
from ember.ops.tensorinfo import result_type
from tests.unit.ops.util import same, to_torch

torch = pytest.importorskip("torch")
pytestmark = [pytest.mark.filterwarnings("ignore::UserWarning")]
RNG = np.random.default_rng(7)


def crand(*shape, dtype=np.complex64):
    return (RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)).astype(dtype)


def check(fn, *args):
    got = ember.script(fn)(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    want = fn(*[to_torch(a) for a in args])
    same(got, want, rtol=1e-5, atol=1e-6)


def arithmetic(x: torch.Tensor, y: torch.Tensor, r: torch.Tensor) -> List[torch.Tensor]:
    return [x + y, x - y, x * y, x / y, x ** 2, x ** y, -x, x * r, r / x, x + 1, 2 * x,
            x * 1j, 1j + r, r * (1 - 2j), x / 2, x == y, x != y, x == 1j, x.clone().add_(1j),
            x.clone().mul_(y)]


def unary(x: torch.Tensor) -> List[torch.Tensor]:
    return [torch.abs(x), x.abs(), torch.angle(x), x.angle(), torch.conj(x), x.conj(),
            torch.real(x), torch.imag(x), x.real, x.imag, torch.exp(x), torch.log(x),
            torch.sqrt(x), torch.sin(x), torch.tanh(x), x.sum(), x.mean(), x.sum(0),
            x.mean(1, keepdim=True), x.prod(), torch.isnan(x), torch.isfinite(x)]


def views(x: torch.Tensor) -> List[torch.Tensor]:
    r = torch.view_as_real(x)
    return [r, torch.view_as_complex(r), torch.view_as_complex(r * 2.0), r.sum(-1)]


def linalg(a: torch.Tensor, b: torch.Tensor) -> List[torch.Tensor]:
    return [torch.matmul(a, b), a @ b, a.t() @ a, a.transpose(0, 1).conj()]


def make(re: torch.Tensor, im: torch.Tensor) -> List[torch.Tensor]:
    return [torch.complex(re, im), torch.complex(re.double(), im.double()),
            torch.tensor([1j, 2 - 1j]), torch.tensor([[1j], [2j]]), torch.tensor(3j),
            torch.zeros(2, dtype=torch.complex64), torch.ones(2, dtype=torch.cdouble),
            torch.tensor([1, 2], dtype=torch.cfloat), torch.zeros(3, dtype=torch.complex128),
            re * 1j, re.double() * 1j, re.to(torch.complex128), re.long() * 1j,
            torch.angle(re), torch.angle(re.long()), torch.conj(re), torch.real(re),
            torch.polar(re.abs(), im), torch.tensor([torch.is_complex(re),
                                                     re.to(torch.cfloat).is_complex()])]


def scalars(x: torch.Tensor, c: torch.Tensor, i: int) -> List[complex]:
    c[i] = 2.4 + 0.5j
    y = (3 * 2j) + x + 5j - 7.4j - 4
    return [complex(x), complex(x, 2.0), complex(1.5, x), complex(c[i]), complex(y)]


def elements(x: torch.Tensor, i: int) -> List[complex]:
    xs: List[complex] = x.tolist()  # typed by the annotation
    y = x.to(torch.complex128)  # a known dtype: tolist() and item() are complex
    return xs + y.tolist() + [y[i].item(), y.sum().item()]


def nested(x: torch.Tensor) -> List[List[complex]]:
    return x.tolist()


def test_tolist_and_item_of_complex_tensors_are_complex():
    got = ember.script(elements)(crand(3), 1)
    assert all(type(z) is complex for z in got) and len(got) == 8
    x = crand(2, 3, dtype=np.complex128)
    assert ember.script(nested)(x) == x.tolist()
    want, got = elements(to_torch(x[0]), 2), ember.script(elements)(x[0], 2)
    assert want[:7] == got[:7] and abs(want[7] - got[7]) < 1e-12  # a sum: order may differ


def test_complex_of_tensors_and_complex_item_assignment():
    check(scalars, np.array(1.5, np.float32), crand(3), 1)


def shaping(x: torch.Tensor, m: torch.Tensor) -> List[torch.Tensor]:
    return [torch.full((2,), 1j), torch.full((2,), 1 + 0j, dtype=torch.complex128),
            torch.zeros_like(x), torch.ones_like(x), torch.where(m, x, 0j), torch.cat([x, x]),
            torch.stack([x, x]), x.reshape(2, 2).t(), x[0], x[1:3], x.flip(0), x * m,
            x.clone().fill_(2j), x.to(torch.complex128), x.sum(0, keepdim=True),
            x.unsqueeze(0), x.expand(2, 4), torch.exp(1j * x.real), x.pow(2),
            torch.pow(x, 0.5), x.square(), x.neg(), x.reciprocal(), x.conj() * x,
            torch.sgn(x), x.add(x, alpha=2)]


def test_creation_shaping_and_indexing_of_complex_tensors():
    check(shaping, crand(4), np.array([True, False, True, False]))


def test_arithmetic_and_comparisons_match_torch():
    check(arithmetic, crand(3, 4), crand(3, 4), RNG.standard_normal((4,)).astype(np.float32))
    check(arithmetic, crand(2, dtype=np.complex128), crand(2, dtype=np.complex128),
          RNG.standard_normal((2,)).astype(np.float32))


def test_unary_functions_parts_and_reductions_match_torch():
    check(unary, crand(3, 4))
    check(unary, crand(2, 3, dtype=np.complex128))


def test_views_between_complex_and_real_pairs():
    check(views, crand(3, 2))
    check(views, crand(4, dtype=np.complex128))


def test_matmul_of_complex_matrices():
    check(linalg, crand(3, 3), crand(3, 3))


def test_creation_and_float_to_complex_match_torch():
    check(make, RNG.standard_normal(3).astype(np.float32),
          RNG.standard_normal(3).astype(np.float32))


_DTYPES = ["bool", "uint8", "int8", "int32", "int64", "float16", "float32", "float64",
           "complex64", "complex128"]


@pytest.mark.parametrize("a", _DTYPES)
def test_result_type_is_torchs_with_complex(a):
    ta = getattr(torch, a)
    for b in _DTYPES:
        tb = getattr(torch, b)
        x, y = torch.zeros(2, dtype=ta), torch.zeros(2, dtype=tb)
        z = torch.zeros((), dtype=tb)
        if "complex" not in a + b and a != "float16":
            continue
        assert result_type([a, b]) == str(torch.result_type(x, y))[6:], (a, b)
        want = str(torch.result_type(x, z))[6:]
        if want != "complex32":  # ComplexHalf: numpy has none, ember gives complex64
            assert result_type([a], [b]) == want, (a, b, "zero-dim")
    for s, kind in ((1j, "complex"), (2.5, "float"), (3, "int"), (True, "bool")):
        want = str(torch.result_type(torch.zeros(2, dtype=ta), s))[6:]
        if want != "complex32":
            assert result_type([a], (), [kind]) == want, (a, s)


def imag_of_real(r: torch.Tensor) -> torch.Tensor:
    return torch.imag(r)


def view_real(r: torch.Tensor) -> torch.Tensor:
    return torch.view_as_real(r)


def parts_of_ints(r: torch.Tensor) -> torch.Tensor:
    return torch.complex(r, r)


def ordered(x: torch.Tensor) -> torch.Tensor:
    return x < x


def floordiv(x: torch.Tensor) -> torch.Tensor:
    return x // 2


def into_float(r: torch.Tensor) -> torch.Tensor:
    return r.add_(1j)


@pytest.mark.parametrize("fn, arg", [
    (imag_of_real, np.ones(2, np.float32)), (parts_of_ints, np.ones(2, np.int64)),
    (ordered, np.ones(2, np.complex64)), (floordiv, np.ones(2, np.complex64)),
    (view_real, np.ones(2, np.float64)),
])
def test_torch_errors_keep_their_types_and_messages(fn, arg):
    with pytest.raises(Exception) as want:
        fn(to_torch(arg))
    with pytest.raises(Exception) as got:
        ember.script(fn)(arg.copy())
    assert type(got.value) is type(want.value) or isinstance(got.value, ember.errors.CompileError)
    first = str(want.value).splitlines()[0]
    if not isinstance(got.value, ember.errors.CompileError):
        assert str(got.value) == first


def test_complex_result_into_a_float_tensor_in_place_is_refused():
    with pytest.raises(RuntimeError, match="result type ComplexFloat can.t be cast to the desired output type Float"):
        ember.script(into_float)(np.ones(2, np.float32))


def product_and_magnitude(x: torch.Tensor, y: torch.Tensor) -> List[torch.Tensor]:
    z = x.clone()
    z *= y
    return [x * y, z, torch.abs(x), x * (0.5 - 2j), 3.0 * x, x + y, x - y]


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_products_and_magnitudes_are_bit_exact_with_torch(dtype):
    """torch multiplies complex numbers with separately rounded products (numpy's loop uses
    FMAs) and takes magnitudes with hypot: ember does the same, bit for bit (complex128
    magnitudes: numpy's hypot and torch's differ in the last bit for about 0.5%)."""
    x, y = crand(1000, dtype=dtype), crand(1000, dtype=dtype)
    x[:4] = [complex("inf"), complex("nan"), complex(0, float("inf")), -0j]
    got = ember.script(product_and_magnitude)(x.copy(), y.copy())
    want = [t.resolve_conj().numpy() for t in product_and_magnitude(to_torch(x), to_torch(y))]
    for i, (g, w) in enumerate(zip(got, want)):
        assert g.dtype == w.dtype
        if i == 2 and dtype == np.complex128:
            np.testing.assert_allclose(g, w, rtol=1e-15)
            continue
        assert np.array_equal(g, w, equal_nan=True) and \
            np.array_equal(np.signbit(g.real if g.dtype.kind == "c" else g),
                           np.signbit(w.real if w.dtype.kind == "c" else w))


def chain(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    z = x * y + x
    w = torch.exp(z) * y - torch.abs(x)
    return w * w / (y + 1)


def test_a_fused_complex_chain_gives_the_unfused_bits():
    """The first call runs the chain op by op; later calls run the fused group, whose out=
    twins must give the same bits for complex tensors too."""
    sf = ember.script(chain)
    assert "fused" in sf.graph
    x, y = crand(64), crand(64)
    first = sf(x, y)
    assert all(np.array_equal(first, sf(x, y), equal_nan=True) for _ in range(3))
    same(first, chain(to_torch(x), to_torch(y)), rtol=1e-4, atol=1e-5)
