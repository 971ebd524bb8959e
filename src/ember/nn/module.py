"""ember.nn.Module and the containers: the structure ember.script reads.

A Module keeps three kinds of state, as torch.nn.Module does:

* tensors (parameters and buffers alike: inference has no gradients) in
  `_tensors`, numpy arrays or None;
* submodules in `_modules`, Modules or None;
* plain attributes (int, float, bool, str, None, and lists / tuples / dicts of
  them) in the instance `__dict__`.

Class-level `__constants__` (a list of attribute names) and `Final`
annotations mark attributes the compiler may treat as constants. `forward`
and the other methods are written in the scriptable subset of Python, so the
same code runs eagerly on numpy arrays and compiled by `ember.script`.
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

from ember.ops.tensor_common import frozen as is_frozen, seal


def export(fn):
    """Mark a module method as an entry point of the scripted module (like
    @torch.jit.export): `ember.script(m).name(...)` and `ember.mobile.load(p).name(...)`."""
    fn.__ember_export__ = True
    return fn


class Module:
    """Base class of ember layers and models (see the module docstring)."""

    training: bool

    def __init__(self):
        object.__setattr__(self, "_tensors", OrderedDict())
        object.__setattr__(self, "_modules", OrderedDict())
        object.__setattr__(self, "training", False)

    # -- attributes ---------------------------------------------------------------------------
    def __setattr__(self, name: str, value) -> None:
        tensors = self.__dict__.get("_tensors")
        if tensors is None:
            raise AttributeError("call Module.__init__() (super().__init__()) before assigning "
                                 "attributes")
        modules = self.__dict__["_modules"]
        if isinstance(value, np.ndarray):
            self._forget(name)
            tensors[name] = value
        elif isinstance(value, Module):
            self._forget(name)
            modules[name] = value
        elif value is None and name in tensors:
            tensors[name] = None
        elif value is None and name in modules:
            modules[name] = None
        else:
            self._forget(name)
            object.__setattr__(self, name, value)

    def _forget(self, name: str) -> None:
        self.__dict__["_tensors"].pop(name, None)
        self.__dict__["_modules"].pop(name, None)
        self.__dict__.pop(name, None)

    def __getattr__(self, name: str):
        d = self.__dict__
        if "_tensors" in d and name in d["_tensors"]:
            return d["_tensors"][name]
        if "_modules" in d and name in d["_modules"]:
            return d["_modules"][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        self._forget(name)

    def register_buffer(self, name: str, value, persistent: bool = True) -> None:
        """A tensor attribute (torch's spelling; buffers and parameters are alike here)."""
        self._forget(name)
        self._tensors[name] = None if value is None else np.asarray(value)

    def register_parameter(self, name: str, value) -> None:
        self.register_buffer(name, value)

    def add_module(self, name: str, module) -> None:
        self._forget(name)
        self._modules[name] = module

    # -- calling --------------------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    def forward(self, *args):
        raise NotImplementedError(f"{type(self).__name__} defines no forward()")

    def eval(self):
        """Inference mode (the only mode ember compiles); returns self."""
        return self.train(False)

    def train(self, mode: bool = True):
        for m in self.modules():
            object.__setattr__(m, "training", bool(mode))
        return self

    # -- traversal ------------------------------------------------------------------------------
    def named_children(self):
        for name, m in self._modules.items():
            if m is not None:
                yield name, m

    def children(self):
        for _, m in self.named_children():
            yield m

    def named_modules(self, prefix: str = ""):
        seen = set()
        stack = [(prefix, self)]
        while stack:
            name, m = stack.pop(0)
            if id(m) in seen:
                continue
            seen.add(id(m))
            yield name, m
            for child_name, child in m.named_children():
                stack.append((f"{name}.{child_name}" if name else child_name, child))

    def modules(self):
        for _, m in self.named_modules():
            yield m

    def named_parameters(self, prefix: str = ""):
        """(dotted name, array) of every tensor, each shared array once."""
        seen = set()
        for mname, m in self.named_modules(prefix):
            for tname, t in m._tensors.items():
                if t is not None and id(t) not in seen:
                    seen.add(id(t))
                    yield (f"{mname}.{tname}" if mname else tname), t

    def parameters(self):
        for _, t in self.named_parameters():
            yield t

    named_buffers = named_parameters
    buffers = parameters

    def state_dict(self) -> dict:
        """Dotted name -> array for every tensor (shared arrays appear under each name)."""
        out = OrderedDict()
        for mname, m in self._all_named_modules():
            for tname, t in m._tensors.items():
                if t is not None:
                    out[f"{mname}.{tname}" if mname else tname] = t
        return out

    def _all_named_modules(self, prefix: str = ""):
        yield prefix, self
        for name, child in self.named_children():
            yield from child._all_named_modules(f"{prefix}.{name}" if prefix else name)

    def load_state_dict(self, state: dict, strict: bool = True, frozen: bool = False) -> None:
        """Copy arrays (numpy, or anything np.asarray takes, e.g. CPU torch tensors) into the
        tensors of the same names, in place (as torch does), casting to their dtypes; shapes
        must match. frozen=True instead replaces each tensor by a read-only frozen copy (one
        copy, straight from the source's memory), or by the array itself when it is frozen
        already (what ember.script keeps of torch layers: nn/torch_memory.py)."""
        own = {}
        for mname, m in self._all_named_modules():
            for tname, t in m._tensors.items():
                if t is not None:  # a None slot (bias=False) is not in state_dict either
                    own[f"{mname}.{tname}" if mname else tname] = (m, tname)
        missing = [k for k in own if k not in state]
        unexpected = [k for k in state if k not in own]
        if strict and (missing or unexpected):
            raise KeyError(f"load_state_dict: missing {missing}, unexpected {unexpected}")
        for key, value in state.items():
            if key not in own:
                continue
            m, tname = own[key]
            arr = _to_numpy(value)
            old = m._tensors[tname]
            if old.shape != arr.shape:
                raise ValueError(f"load_state_dict: '{key}' has shape {arr.shape}, expected "
                                 f"{old.shape}")
            if frozen:  # an array frozen already (a torch COW view, a mapping) is kept
                keep = arr.dtype == old.dtype and is_frozen(arr)
                setattr(m, tname, arr if keep else seal(arr, old.dtype))
            elif old.flags.writeable:
                old[...] = arr  # in place, as torch: arrays held elsewhere stay current
            else:
                setattr(m, tname, arr.astype(old.dtype))

    # -- printing -------------------------------------------------------------------------------
    def extra_repr(self) -> str:
        return ""

    def __repr__(self) -> str:
        lines = [f"  ({name}): " + repr(m).replace("\n", "\n  ")
                 for name, m in self._modules.items()]
        head = f"{type(self).__name__}({self.extra_repr()}"
        if not lines:
            return head + ")"
        return head + "\n" + "\n".join(lines) + "\n)"


def _to_numpy(value) -> np.ndarray:
    """value as an array: a view of a numpy array's or CPU torch tensor's memory (callers
    copy it once, into the module's tensor)."""
    detach = getattr(value, "detach", None)
    if detach is not None:  # a torch tensor, without importing torch
        value = detach().cpu().numpy()
    return np.asarray(value)


class _ModuleSequence(Module):
    """What Sequential and ModuleList share in Python: len, iteration, indexing, append."""

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __getitem__(self, i):
        return _index(self, i)

    def append(self, m):
        self.add_module(str(len(self._modules)), m)
        return self

    def extend(self, ms):
        for m in ms:
            self.append(m)
        return self


class Sequential(_ModuleSequence):
    """Modules applied in order; compiled by unrolling the loop over them."""

    def __init__(self, *modules):
        super().__init__()
        if len(modules) == 1 and isinstance(modules[0], (dict, OrderedDict)):
            for name, m in modules[0].items():
                self.add_module(name, m)
        else:
            for i, m in enumerate(modules):
                self.add_module(str(i), m)

    def forward(self, input):
        for module in self:
            input = module(input)
        return input


class ModuleList(_ModuleSequence):
    """A list of modules; compiled code iterates it (unrolled), indexes it with constants
    and takes its len."""

    def __init__(self, modules=None):
        super().__init__()
        for m in modules or ():
            self.append(m)


class ModuleDict(Module):
    """Modules by string key; compiled code indexes it with constant keys and iterates
    keys(), values() and items() (unrolled)."""

    def __init__(self, modules=None):
        super().__init__()
        for name, m in (modules or {}).items():
            self.add_module(name, m)

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules)

    def __getitem__(self, key: str):
        return self._modules[key]

    def __setitem__(self, key: str, m) -> None:
        self.add_module(key, m)

    def __contains__(self, key: str) -> bool:
        return key in self._modules

    def keys(self):
        return self._modules.keys()

    def values(self):
        return self._modules.values()

    def items(self):
        return self._modules.items()


def _index(container, i):
    mods = list(container._modules.values())
    if isinstance(i, slice):
        return type(container)(mods[i]) if isinstance(container, ModuleList) else \
            Sequential(*mods[i])
    return mods[i]
