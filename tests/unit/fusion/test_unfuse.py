"""unfuse puts a group's ops back in place (ember.grad of an optimized function needs it)."""

import numpy as np

from ember import mobile
from ember.api.core import compile_source
from ember.interpreter.pipeline import compile_to_program, run_passes
from ember.ir import print_module, verify_module
from ember.passes.fuse import unfuse
from tests.unit.fusion.util import same

SRC = ("import torch\n\n"
       "def f(x: torch.Tensor, a: float) -> torch.Tensor:\n"
       "    y = torch.relu(x * a + 1) * torch.sigmoid(x)\n"
       "    return y - x / 2\n")


def test_unfuse_restores_the_ops_and_their_results():
    m = compile_source(SRC, "<unfuse>")
    run_passes(m)
    assert "tensor.fused" in print_module(m)
    fused = mobile.build(compile_to_program(m, optimize=False)).entry("f")
    assert unfuse(m)
    verify_module(m)
    text = print_module(m, locs=False)
    assert "tensor.fused" not in text and "tensor.sigmoid" in text
    plain = mobile.build(compile_to_program(m, optimize=False)).entry("f")
    x = np.linspace(-3, 3, 50, dtype=np.float32)
    for _ in range(2):
        assert same(fused(x, 0.5), plain(x, 0.5))
    assert not unfuse(m)
