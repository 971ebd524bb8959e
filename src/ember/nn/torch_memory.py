"""Frozen arrays of torch tensors' values without copying them (ember.script's weights).

`frozen_array(t)` asks torch for a copy-on-write clone of t (`torch._lazy_clone`): the
clone and t then share one buffer, and whichever side is written first through torch gets
a copy of its own first (torch's COW storage: every in-place op, `.data`, `.numpy()`,
DLPack, `load_state_dict`, optimizer steps and `nn.init` materialize before they write;
reads, eager forwards, torch.jit.script/freeze/save do not). ember keeps the clone and
reads the buffer through a read-only numpy array whose owner is a FrozenExternal holding
the clone, so the array is frozen (kernels may cache what they derive from it) and its
values never change when the torch module is changed later — unlike torch.jit.freeze,
whose constants are the module's own tensors. Scripting thus copies nothing; the copy
happens only if and when the torch side writes (or hands out a raw pointer: `.numpy()`,
torch.save's pickling), and then torch makes it.

What this cannot see: a raw alias of the memory made *before* scripting (a numpy array
from `t.numpy()`, a DLPack capsule, a pointer held by a C extension) writes past torch's
COW; writing through one after ember.script changes the scripted module's weights, as
rewriting a mapped artifact in place does (docs/architecture.md, "Big models"). Tensors
whose memory torch does not own (torch.from_numpy, torch.frombuffer, torch.load(mmap=True):
a storage that is not resizable), non-contiguous or non-CPU ones, and any torch without
lazy clones are copied once instead (`seal`).
"""

from __future__ import annotations

import numpy as np

from ember.ops.tensor_common import FrozenExternal, seal


def frozen_array(t, dtype=None) -> np.ndarray:
    """t's values as a frozen numpy array of `dtype` (t's by default): a read-only view of
    a copy-on-write clone of t's memory when torch can make one, else one copy."""
    t = t.detach()
    if dtype is None or np.dtype(dtype) == _numpy_dtype(t):
        shared = _shared_view(t)
        if shared is not None:
            return shared
    return seal(t.cpu().numpy(), dtype)


def _numpy_dtype(t):
    try:
        return np.dtype(str(t.dtype).removeprefix("torch."))
    except TypeError:
        return None


def _shared_view(t) -> np.ndarray | None:
    """A read-only array over a COW clone of t's memory, or None when it cannot be made
    (then the copy path runs, and reports what it cannot read as before)."""
    try:
        return _cow_view(t)
    except Exception:  # noqa: BLE001 - tensor subclasses, inference tensors, ...: copy
        return None


def _cow_view(t) -> np.ndarray | None:
    import torch

    lazy_clone = getattr(torch, "_lazy_clone", None)
    is_cow = getattr(torch._C, "_is_cow_tensor", None)
    dtype = _numpy_dtype(t)
    if lazy_clone is None or is_cow is None or dtype is None or dtype.kind not in "biuf" or \
            t.device.type != "cpu" or t.layout is not torch.strided or t.is_quantized or \
            t.numel() == 0 or not t.is_contiguous() or t.is_conj() or t.is_neg() or \
            not t.untyped_storage().resizable():
        return None
    clone = lazy_clone(t)
    if not is_cow(clone):  # this torch shares no memory: never hand out t's own buffer
        return None
    holder = FrozenExternal(clone, clone.const_data_ptr(), tuple(clone.shape),
                            dtype.newbyteorder("=").str)
    return np.asarray(holder)
