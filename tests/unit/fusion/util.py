"""Fused and unfused builds of one source, and a bit-exact comparison."""

import numpy as np

from ember import mobile
from ember.api.core import compile_source
from ember.interpreter.artifact_writer import write_artifact
from ember.interpreter.pipeline import compile_to_program, run_passes
from ember.passes.manager import default_pipeline


def programs(src, pipeline_fuse="fuse"):
    """(unfused program, fused program) of `src` under the default pipeline."""
    base = default_pipeline().replace(",fuse", "")
    out = []
    for pipe in (base, base + "," + pipeline_fuse):
        m = compile_source(src, "<fusion-test>")
        run_passes(m, pipe)
        out.append(compile_to_program(m, optimize=False))
    return out


def fused_groups(program) -> int:
    return sum(1 for f in program.functions for c in f.consts
               if type(c) is tuple and c and c[0] == "fused")


def same(a, b) -> bool:
    """Bit-identical results: types, dtypes, shapes and bytes (nan and -0.0 included)."""
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(map(same, a, b))
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and a.shape == b.shape and \
            np.ascontiguousarray(a).tobytes() == np.ascontiguousarray(b).tobytes()
    return type(a) is type(b) and a == b


def engines(src, name, tmp_path, pipeline_fuse="fuse"):
    """(unfused fn, fused fn in process, fused fn after save -> ember.mobile.load)."""
    plain, fused = programs(src, pipeline_fuse)
    assert fused_groups(fused) > 0, "nothing fused"
    path = tmp_path / f"{name}.ember"
    write_artifact(fused, path, default_entry=name)
    return (mobile.build(plain).entry(name), mobile.build(fused).entry(name),
            mobile.load(path).entry(name))
