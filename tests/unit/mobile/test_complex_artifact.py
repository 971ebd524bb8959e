"""Complex numbers in artifacts (format 6): constants, signatures and complex tensors
survive save -> load exactly; an older runtime refuses the artifact naming both versions;
bad complex constants are ArtifactErrors."""

import json
import math
from typing import List

import numpy as np
import pytest

import ember
from ember import mobile, nn
from ember.errors import ArtifactError
from ember.mobile import manifest as M
from ember.mobile.boundary import CallError

SOURCE = '''
import cmath
from typing import List, Tuple
import torch
from torch import Tensor


def consts(z: complex = -0j) -> List[complex]:
    return [z, 1j, complex(-0.0, float("nan")), cmath.infj, 1.5 - 2.25j, z * 0.5j]
'''


def _same(a, b) -> bool:
    return all(math.copysign(1, p) == math.copysign(1, q) and (p == q or p != p and q != q)
               for p, q in ((a.real, b.real), (a.imag, b.imag)))


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    cu = ember.CompilationUnit(SOURCE)
    path = tmp_path_factory.mktemp("c") / "c.ember"
    cu.consts.save(path)
    return cu, path


def test_complex_constants_and_defaults_survive_save_and_load(saved):
    cu, path = saved
    loaded = mobile.load(path)
    for args in ((), (3 - 4j,), (complex(float("inf"), -0.0),)):
        want, got = cu.consts(*args), loaded(*args)
        assert len(want) == len(got) and all(type(g) is complex for g in got)
        assert all(_same(a, b) for a, b in zip(want, got)), (want, got)


TENSORS = '''
import torch
from torch import Tensor
from typing import List


def tensors(x: Tensor) -> List[Tensor]:
    w = torch.tensor([1 + 2j, -0.5j], dtype=torch.complex64)
    return [x * w, torch.view_as_real(w), torch.tensor([3j, -0j], dtype=torch.complex128)]
'''


def test_complex_tensors_survive_save_and_load(tmp_path):
    cu = ember.CompilationUnit(TENSORS)
    cu.tensors.save(tmp_path / "t.ember")
    loaded = mobile.load(tmp_path / "t.ember")
    x = np.array([2 + 0j, 1j], dtype=np.complex64)
    want, got = cu.tensors(x), loaded(x)
    assert [a.dtype for a in got] == [np.complex64, np.float32, np.complex128]
    for a, b in zip(want, got):
        assert a.dtype == b.dtype and np.array_equal(a, b)
    assert math.copysign(1, got[2][1].imag) == -1


def test_call_boundary_names_the_parameter(saved):
    loaded = mobile.load(saved[1])
    with pytest.raises(CallError, match="argument 'z' must be complex, got str"):
        loaded("1")
    with pytest.raises(TypeError, match="argument 'z' must be complex, got None"):
        loaded(None)


@pytest.mark.parametrize("real", [1, -2.5, -0.0])
def test_a_complex_parameter_takes_an_int_or_float_as_torchscript_converts(saved, real):
    loaded = mobile.load(saved[1])
    for fn in (saved[0].consts, loaded):
        got = fn(real)[0]
        assert type(got) is complex and _same(got, complex(real))


def _manifest(path):
    import zipfile
    with zipfile.ZipFile(path) as z:
        return json.loads(z.read("manifest.json"))


def test_format_6_is_written_and_an_older_runtime_refuses_it(saved, monkeypatch):
    m = _manifest(saved[1])
    assert m["version"] >= 6 and m["reads"][1] >= 6
    assert ["c", ["0x1.8000000000000p+0", "-0x1.2000000000000p+1"]] in sum(m["consts"], [])
    monkeypatch.setattr(M, "READS", (1, 5))
    with pytest.raises(ArtifactError, match=r"version \d+ is newer than this runtime reads "
                                            r"\(1-5\)"):
        mobile.load(saved[1])


@pytest.mark.parametrize("c", [["c", ["1.0"]], ["c", [1.0, 2.0]], ["c", ["0x1p0", "x"]],
                               ["c", "0x1p0"], ["c", ["0x1p0", "0" * 100]]])
def test_bad_complex_constants_are_artifact_errors(c):
    with pytest.raises(ArtifactError):
        M.decode_const(c, 0)


def test_complex_constants_encode_exactly():
    for z in (1j, complex(-0.0, -0.0), complex(float("nan"), float("inf")), 5e-324 - 1e308j):
        assert _same(M.decode_const(M.encode_const(z), 0), z)


def test_module_fields_of_complex_values_survive_save_and_load(tmp_path):
    class Roots(nn.Module):
        def __init__(self):
            super().__init__()
            self.a = 3 + 5j
            self.b = [2 + 3j, complex(-0.0, 4.0), -3j]
            self.c = {2 + 3j: 2 - 3j, -4.3 - 2j: 3j}

        def forward(self, i: int) -> List[complex]:
            return [i + 2j, self.a, self.b[i], self.c[-4.3 - 2j]]

    for optimize in (False, True):
        sm = ember.script(Roots(), optimize=optimize)
        sm.save(tmp_path / "r.ember")
        loaded = mobile.load(tmp_path / "r.ember")
        for i in (0, 1):
            want, got = sm(i), loaded(i)
            assert all(_same(a, b) for a, b in zip(want, got)) and len(want) == len(got)
        assert _same(loaded(1)[2], complex(-0.0, 4.0))
