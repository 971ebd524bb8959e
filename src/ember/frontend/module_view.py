"""What the compiler reads of a module instance, ember.nn or torch.nn alike.

A ModuleView lists a module's tensors (numpy arrays; torch parameters and
buffers are copied out once), submodules, plain attributes and constants, and
names the Python class whose methods are compiled. torch is never imported
here: a torch module is recognised by its class hierarchy, and torch's
built-in layers are converted to their ember.nn equivalents
(ember.nn.from_torch) before they are viewed. Containers (Sequential,
ModuleList, ModuleDict) of either library are viewed as ember.nn's, whose
methods are written in the scriptable subset.
"""

from __future__ import annotations

import types
import typing

import numpy as np

from ember.errors import UnsupportedError
from ember.ir import types as T
from ember.nn.torch_memory import frozen_array

_BASES = {("ember.nn.module", "Module"), ("torch.nn.modules.module", "Module"),
          ("torch.jit._script", "ScriptModule"), ("torch.jit._script", "RecursiveScriptModule")}
_TORCH_CONTAINERS = {"Sequential": "Sequential", "ModuleList": "ModuleList",
                     "ModuleDict": "ModuleDict"}
_TORCH_INTERNAL = {"training", "dump_patches", "call_super_init"}


def is_module(obj) -> bool:
    """An instance of ember.nn.Module or torch.nn.Module (torch need not be imported)."""
    return not isinstance(obj, type) and any(
        (c.__module__, c.__name__) in _BASES for c in type(obj).__mro__)


def is_torch_module(obj) -> bool:
    return any(c.__module__ == "torch.nn.modules.module" and c.__name__ == "Module"
               for c in type(obj).__mro__)


def is_base_class(cls) -> bool:
    """The library base classes whose methods are never compiled."""
    return (cls.__module__, cls.__name__) in _BASES or cls is object


class ModuleView:
    """One module instance as the compiler sees it."""

    def __init__(self, obj, pyclass, label: str):
        self.obj = obj
        """The instance whose state is read (after any torch conversion)."""
        self.pyclass = pyclass
        """The class whose methods (forward, ...) are compiled."""
        self.label = label
        """How messages name the module's class ("MyNet", "torch.nn.Linear")."""
        self.tensors: dict = {}
        """name -> np.ndarray or None."""
        self.submodules: dict = {}
        """name -> module instance or None."""
        self.attrs: dict = {}
        """name -> plain Python value."""
        self.constants: dict = {}
        """name -> value the compiler folds (__constants__, Final, training)."""
        self.container: str | None = None
        """"list" (Sequential, ModuleList), "dict" (ModuleDict) or None."""


def view_of(obj, tensor_cache: dict) -> ModuleView:
    """The view of module instance obj; tensor_cache maps id(torch tensor) -> array so that
    shared (tied) torch tensors become one array."""
    if is_torch_module(obj):
        return _torch_view(obj, tensor_cache)
    view = ModuleView(obj, type(obj), type(obj).__qualname__)
    from ember.nn.module import ModuleDict, ModuleList, Sequential
    if isinstance(obj, (Sequential, ModuleList)):
        view.container = "list"
    elif isinstance(obj, ModuleDict):
        view.container = "dict"
    view.tensors = dict(obj._tensors)
    view.submodules = dict(obj._modules)
    view.attrs = {k: v for k, v in obj.__dict__.items()
                  if k not in ("_tensors", "_modules", "training")}
    _split_constants(view)
    return view


def _torch_view(obj, cache) -> ModuleView:
    cls = type(obj)
    mod = cls.__module__
    if mod.startswith("torch.nn.modules") and cls.__name__ in _TORCH_CONTAINERS:
        import ember.nn.module as M
        view = ModuleView(obj, getattr(M, _TORCH_CONTAINERS[cls.__name__]),
                          f"torch.nn.{cls.__name__}")
        view.container = "dict" if cls.__name__ == "ModuleDict" else "list"
        view.submodules = dict(obj._modules)
        return view
    if mod.startswith("torch.") and f"{mod}.{cls.__qualname__}" not in _TORCH_COMPILED:
        return _converted_view(obj, cache)
    view = ModuleView(obj, cls, cls.__qualname__)
    view.container = _torch_container_kind(cls)
    for name, t in list(obj._parameters.items()) + list(obj._buffers.items()):
        view.tensors[name] = None if t is None else torch_array(t, cache, f"{name} of {cls}")
    view.submodules = dict(obj._modules)
    for k, v in obj.__dict__.items():
        if k.startswith("_") or k in _TORCH_INTERNAL:
            continue
        if _is_torch_tensor(v):
            view.tensors[k] = torch_array(v, cache, f"{k} of {cls}")
        else:
            view.attrs[k] = v
    _split_constants(view)
    return view


_TORCH_COMPILED = frozenset({"torch.ao.quantization.stubs.QuantWrapper"})
"""torch classes whose forward ember compiles from torch's source, like a user module's."""


def _torch_container_kind(cls) -> str | None:
    """"list" or "dict" for a user subclass of torch's Sequential / ModuleList / ModuleDict
    (torchvision's Conv2dNormActivation is a Sequential), else None."""
    for c in cls.__mro__:
        if c.__module__.startswith("torch.nn.modules") and c.__name__ in _TORCH_CONTAINERS:
            return "dict" if c.__name__ == "ModuleDict" else "list"
    return None


def _converted_view(obj, cache) -> ModuleView:
    """A torch built-in layer, through its ember.nn equivalent."""
    cls = type(obj)
    try:
        from ember.nn.from_torch import convert_layer
    except ImportError:
        raise UnsupportedError(f"torch.nn.{cls.__name__} has no ember.nn equivalent yet; "
                               "write it as a custom nn.Module whose forward ember can "
                               "compile") from None
    converted = cache.get(("layer", id(obj)))
    if converted is None:
        converted = cache[("layer", id(obj))] = convert_layer(obj, frozen=True)
    view = view_of(converted, cache)
    view.label = f"torch.nn.{cls.__name__}"
    return view


def _is_torch_tensor(v) -> bool:
    return any(c.__module__ == "torch" and c.__name__ == "Tensor" for c in type(v).__mro__)


def torch_array(t, cache: dict, what: str) -> np.ndarray:
    """A torch tensor's data as a frozen numpy array (read-only; a view of a copy-on-write
    clone of torch's memory, else one copy: nn/torch_memory.py), one per tensor object."""
    key = id(t)
    if key in cache:
        return cache[key][1]
    try:
        arr = frozen_array(t)
    except (TypeError, RuntimeError) as e:
        raise UnsupportedError(f"cannot read tensor {what} ({e}); ember stores float16/32/64, "
                               "int8/16/32/64, uint8 and bool tensors") from None
    cache[key] = (t, arr)  # keep t alive so its id is not reused
    return arr


def _split_constants(view: ModuleView) -> None:
    """Move __constants__ and Final attributes from attrs into constants."""
    names = set(getattr(view.pyclass, "__constants__", ()) or ())
    for cls in view.pyclass.__mro__:
        for name, ann in getattr(cls, "__annotations__", {}).items():
            if _is_final(ann):
                names.add(name)
    for name in names:
        if name in view.attrs:
            v = view.attrs.pop(name)
            view.constants[name] = tuple(v) if isinstance(v, list) else v


def _is_final(ann) -> bool:
    if isinstance(ann, str):
        return ann.startswith(("Final", "typing.Final"))
    return ann is typing.Final or typing.get_origin(ann) is typing.Final


# ----------------------------------------------------------------------------- value types


def value_type(v, hint=None) -> T.Type | None:
    """The IR type of a plain attribute value (hint: its class annotation's IR type);
    None if compiled code cannot hold it."""
    if hint is not None and _fits(v, hint):
        return hint
    if isinstance(v, bool):
        return T.BOOL
    if isinstance(v, int):
        return T.I64 if -(1 << 63) <= v < (1 << 63) else None
    if isinstance(v, float):
        return T.F64
    if isinstance(v, complex):
        return T.C128
    if isinstance(v, str):
        return T.STR
    if v is None:
        return T.NONE
    if isinstance(v, np.ndarray):
        return tensor_type(v)
    if isinstance(v, (list, tuple)):
        elems = [value_type(x) for x in v]
        if None in elems:
            return None
        if isinstance(v, list) and elems and all(isinstance(e, T.TensorType) for e in elems):
            return T.ListType(T.TENSOR)  # tensors of different shapes: List[Tensor]
        if isinstance(v, tuple):
            return T.TupleType(tuple(elems))
        return T.ListType(elems[0]) if elems and all(e == elems[0] for e in elems) else None
    if isinstance(v, dict) and v:
        keys = {value_type(k) for k in v}
        vals = [value_type(x) for x in v.values()]
        if len(keys) == 1 and None not in keys and vals[0] is not None and \
                all(x == vals[0] for x in vals):
            return T.DictType(keys.pop(), vals[0])
    return None


def tensor_type(a: np.ndarray) -> T.TensorType:
    return T.TensorType(T.IR_DTYPE[a.dtype.name], tuple(a.shape))


def _fits(v, t) -> bool:
    if isinstance(t, (T.OptionalType, T.UnionType)):
        return any(_fits(v, m) for m in T.members(t))
    if isinstance(v, list) and not v:
        return isinstance(t, T.ListType)
    if isinstance(v, dict) and not v:
        return isinstance(t, T.DictType)
    got = value_type(v)
    return got is not None and (got == t or T.is_subtype(got, t))


def annotation_type(ann) -> T.Type | None:
    """The IR type of a runtime class annotation (int, List[int], Optional[Tensor], ...)."""
    if ann in (int, float, complex, bool, str, type(None), None):
        return {int: T.I64, float: T.F64, complex: T.C128, bool: T.BOOL,
                str: T.STR}.get(ann, T.NONE)
    name = getattr(ann, "__name__", "")
    if name == "Tensor" or ann is np.ndarray:
        return T.TENSOR
    origin, args = typing.get_origin(ann), typing.get_args(ann)
    inner = [annotation_type(a) for a in args]
    if None in inner:
        return None
    if origin is list and len(inner) == 1:
        return T.ListType(inner[0])
    if origin is dict and len(inner) == 2:
        return T.DictType(inner[0], inner[1])
    if origin is tuple and inner:
        return T.TupleType(tuple(inner))
    if (origin is typing.Union or origin is types.UnionType) and inner:
        return T.make_union(inner)  # Optional[X], Union[X, Y] and X | None
    return None
