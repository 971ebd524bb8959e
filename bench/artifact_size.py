"""Artifact size benchmark (not a test): `python bench/artifact_size.py`.

For each suite-B model (../shared/bench/workloads/models.py), scripted with
`ember.script` and saved: the artifact's bytes, its tensor data (tensors.bin: the
weights after freezing, shared tensors once), the model's own weight bytes (its
parameters and buffers, tied ones once), the fixed cost (artifact minus tensor data),
and the ratios artifact / weights. The goal is <= 1.05 on the model's weights. Skips
when torch or the shared benchmarks are missing.
"""

from __future__ import annotations

import os
import sys
import tempfile
import warnings
import zipfile


def _model_weight_bytes(model) -> int:
    seen, total = set(), 0
    for t in list(model.parameters()) + list(model.buffers()):
        if t.data_ptr() not in seen:
            seen.add(t.data_ptr())
            total += t.numel() * t.element_size()
    return total


def _entry_sizes(path) -> str:
    return " ".join(f"{i.filename}={i.compress_size}" for i in zipfile.ZipFile(path).infolist())


def main() -> int:
    here = os.path.dirname(os.path.abspath(__file__))
    shared = os.path.join(here, "..", "..", "shared", "bench")
    if not os.path.isdir(shared):
        print("artifact_size: ../shared/bench not found; skipped")
        return 0
    sys.path.insert(0, shared)
    try:
        from workloads.models import MODELS, make_model
    except ImportError as e:
        print("artifact_size: skipped:", e)
        return 0
    import ember
    warnings.filterwarnings("ignore")
    print(f"{'model':12} {'artifact':>9} {'tensors':>9} {'weights':>9} {'fixed':>6} "
          f"{'/tensors':>8} {'/weights':>8}  entries (compressed bytes)")
    with tempfile.TemporaryDirectory() as tmp:
        for name in MODELS:
            model = make_model(name)
            path = os.path.join(tmp, f"{name}.ember")
            ember.script(model).save(path)
            size = os.path.getsize(path)
            tensors = zipfile.ZipFile(path).getinfo("tensors.bin").file_size
            weights = _model_weight_bytes(model)
            print(f"{name:12} {size:9d} {tensors:9d} {weights:9d} {size - tensors:6d} "
                  f"{size / tensors:8.4f} {size / weights:8.4f}  {_entry_sizes(path)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
