"""Entry points of a CompilationUnit whose parameters are annotated `Any` (or
`Tuple[T, ...]`, compiled per length: frontend/vartuple.py).

ember has no dynamically typed value: a function with `Any` parameters is compiled once
per set of argument types where it is called. Called from Python, such an entry is
compiled for the types of the values it is given (a small typed wrapper appended to the
unit's source), once per distinct set of types.
"""

from __future__ import annotations

import ast

import numpy as np

from ember.errors import CallError


def any_entries(source: str) -> dict:
    """name -> ast.FunctionDef of the source's top-level defs with an `Any` parameter."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return {}
    return {node.name: node for node in tree.body
            if isinstance(node, ast.FunctionDef) and any(
                a.annotation is not None and _per_call(a.annotation) or
                a.annotation is None and a.arg in _called(node) or a.arg in item_params(node)
                for a in node.args.args)}


def item_params(node) -> set:
    """Unannotated and `Tensor` parameters of a def whose body calls `.item()`: such an
    entry is compiled for the dtypes of the tensors it is given
    (frontend/signature.item_params)."""
    names = {a.arg for a in node.args.args if a.annotation is None or
             isinstance(a.annotation, ast.Name) and a.annotation.id == "Tensor" or
             isinstance(a.annotation, ast.Attribute) and a.annotation.attr == "Tensor"}
    item = names and any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and
                         n.func.attr == "item" and not n.args and not n.keywords
                         for n in ast.walk(node))
    return names if item else set()


def by_dtype_only(node) -> bool:
    """An entry compiled per call only for its tensors' dtypes (no Any, Tuple[T, ...] or
    called parameter): it is also compiled once as a plain entry."""
    return not any(a.annotation is not None and _per_call(a.annotation) or
                   a.annotation is None and a.arg in _called(node)
                   for a in node.args.args)


def tensor_annotation(value) -> str:
    """The wrapper's annotation of a tensor given for an unannotated parameter of an entry
    compiled per dtype: `__ember_tensor_int64` (frontend/annotations.TENSOR_OF_DTYPE)."""
    from ember.frontend.annotations import TENSOR_DTYPES, TENSOR_OF_DTYPE
    if isinstance(value, np.ndarray) and value.dtype.name in TENSOR_DTYPES:
        return TENSOR_OF_DTYPE + value.dtype.name
    return "Tensor"


def _called(node) -> set:
    """Unannotated parameters the body calls (frontend/signature.called_params)."""
    names = {a.arg for a in node.args.args if a.annotation is None}
    called = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and
                 n.func.id in names for n in ast.walk(node))
    return names if called else set()


def _per_call(node) -> bool:
    """An annotation whose type comes from the value given: Any, or Tuple[T, ...]."""
    return _mentions_any(node) or _variadic(node)


def _variadic(node) -> bool:
    """`Tuple[T, ...]` (or `Optional[Tuple[T, ...]]`): compiled for the length of the tuple
    given."""
    if isinstance(node, ast.Subscript) and \
            getattr(node.value, "id", getattr(node.value, "attr", None)) == "Optional":
        return _variadic(node.slice)
    return isinstance(node, ast.Subscript) and \
        getattr(node.value, "id", getattr(node.value, "attr", None)) in ("Tuple", "tuple") and \
        isinstance(node.slice, ast.Tuple) and len(node.slice.elts) == 2 and \
        isinstance(node.slice.elts[1], ast.Constant) and node.slice.elts[1].value is ...


def _mentions_any(node) -> bool:
    return any(isinstance(n, ast.Name) and n.id == "Any" or
               isinstance(n, ast.Attribute) and n.attr == "Any" for n in ast.walk(node))


class AnyEntry:
    """Calling it compiles (once per argument types) and runs the function."""

    def __init__(self, source: str, filename: str, node: ast.FunctionDef, make_unit):
        self.name = node.name
        self._source, self._filename, self._node = source, filename, node
        self._make_unit = make_unit
        self._instances: dict = {}

    def __call__(self, *args, **kwargs):
        return self.instance(*args, **kwargs)(*args, **kwargs)

    def instance(self, *args, **kwargs):
        """The ScriptFunction compiled for these arguments' types (it can be saved)."""
        params = [a.arg for a in self._node.args.args]
        if len(args) > len(params):
            raise CallError(f"{self.name}() takes {len(params)} argument(s) but "
                            f"{len(args)} were given")
        given = dict(zip(params, args))
        for k, v in kwargs.items():
            if k not in params or k in given:
                raise CallError(f"{self.name}() got an unexpected or repeated keyword "
                                f"argument {k!r}")
            given[k] = v
        names = [p for p in params if p in given]
        types = tuple(self._param_type(p, given[p]) for p in names)
        key = (tuple(names), types, tuple(kwargs))
        if key not in self._instances:
            self._instances[key] = self._compile(names, types, list(kwargs))
        return self._instances[key]

    def _param_type(self, name, value) -> str:
        arg = next(a for a in self._node.args.args if a.arg == name)
        what = f"{self.name}() argument {name!r}"
        if arg.annotation is not None and _variadic(arg.annotation):
            if value is None and not (isinstance(arg.annotation.value, ast.Name) and
                                      arg.annotation.value.id in ("Tuple", "tuple")):
                return "None"  # given for an Optional[Tuple[T, ...]]
            if not isinstance(value, tuple):
                raise CallError(f"{what} must be a tuple, got {type(value).__name__}")
            return type_of(value, what)  # the function checks the items' types
        if name in item_params(self._node):
            return tensor_annotation(value)
        if arg.annotation is not None and not _mentions_any(arg.annotation):
            return ast.unparse(arg.annotation)
        if arg.annotation is None:
            return "Tensor"
        return type_of(value, what)

    def _compile(self, names, types, keywords):
        wrapper = f"__ember_any_{self.name}_{len(self._instances)}"
        sig = ", ".join(f"{n}: {t}" for n, t in zip(names, types))
        pos = [n for n in names if n not in keywords]
        call = ", ".join(pos + [f"{k}={k}" for k in keywords])
        text = f"{self._source}\n\n\ndef {wrapper}({sig}):\n    return {self.name}({call})\n"
        unit = self._make_unit(text, self._filename)
        return _Renamed(getattr(unit, wrapper), self.name)

    def __repr__(self) -> str:
        return f"<ember.CompilationUnit entry {self.name} (Any parameters)>"


class DtypeEntry(AnyEntry):
    """An entry whose body calls `.item()` on unannotated parameters: called, it is compiled
    for the dtypes of the tensors given (an integer tensor's item() is an int); its other
    attributes (save, code, ...) are those of its plain compilation, where item() of a
    tensor of unknown dtype is a float."""

    def __init__(self, source, filename, node, make_unit, plain):
        super().__init__(source, filename, node, make_unit)
        self._plain = plain

    def __getattr__(self, attr):
        if attr.startswith("_"):
            raise AttributeError(attr)
        return getattr(self._plain, attr)

    def __repr__(self) -> str:
        return repr(self._plain)


class _Renamed:
    """A wrapper's ScriptFunction, called with the entry's keyword names."""

    def __init__(self, fn, name):
        self.fn, self.name = fn, name

    def __call__(self, *args, **kwargs):
        return self.fn(*args, **kwargs)

    def __getattr__(self, attr):
        return getattr(self.fn, attr)


def type_of(value, what: str) -> str:
    """The annotation of a Python value's ember type (for an Any parameter)."""
    t = type(value)
    if t in _SCALARS:
        return _SCALARS[t]
    if isinstance(value, np.ndarray):
        return "Tensor"
    if t is list or t is tuple or t is dict:
        parts = [type_of(v, what) for v in (value.items() if t is dict else value)] \
            if t is not dict else [(type_of(k, what), type_of(v, what)) for k, v in value.items()]
        if t is tuple:
            return f"Tuple[{', '.join(parts)}]" if parts else "Tuple[()]"
        kinds = set(parts)
        if len(kinds) != 1:
            raise CallError(f"{what}: cannot type an Any argument that is "
                            f"{'an empty' if not kinds else 'a mixed'} {t.__name__}")
        one = kinds.pop()
        return f"List[{one}]" if t is list else f"Dict[{one[0]}, {one[1]}]"
    raise CallError(f"{what}: ember cannot pass a {t.__name__} as an Any argument")


_SCALARS = {bool: "bool", int: "int", float: "float", complex: "complex", str: "str",
            type(None): "None"}


def value_type(value, what: str):
    """The ember type of a Python value given for an Any parameter."""
    from ember.ir import types as T
    t = type(value)
    if t in _SCALAR_TYPES:
        return getattr(T, _SCALAR_TYPES[t])
    if isinstance(value, np.ndarray):
        return T.TENSOR
    if t is tuple:
        return T.TupleType(tuple(value_type(v, what) for v in value))
    if t is list or t is dict:
        parts = {value_type(v, what) for v in value} if t is list else \
            {(value_type(k, what), value_type(v, what)) for k, v in value.items()}
        if len(parts) != 1:
            raise CallError(f"{what}: cannot type an Any argument that is "
                            f"{'an empty' if not parts else 'a mixed'} {t.__name__}")
        one = parts.pop()
        return T.ListType(one) if t is list else T.DictType(one[0], one[1])
    raise CallError(f"{what}: ember cannot pass a {t.__name__} as an Any argument")


_SCALAR_TYPES = {bool: "BOOL", int: "I64", float: "F64", complex: "C128", str: "STR",
                 type(None): "NONE"}


class AnyScript:
    """ember.script of a function with Any (or Tuple[T, ...]) parameters: compiled, once
    per set of argument types, for the values it is called with."""

    def __init__(self, fn, make):
        import inspect
        self.fn, self._make, self._instances = fn, make, {}
        self.name = self.entry = fn.__name__
        sig = inspect.signature(fn).parameters
        self._params = list(sig)
        self._defaults = {p: a.default for p, a in sig.items()
                          if a.default is not inspect.Parameter.empty}
        self._per_call = [p for p, a in fn.__annotations__.items() if p != "return" and
                          _annotation_per_call(a)]

    def instance(self, *args, **kwargs):
        """The ScriptFunction compiled for these arguments' types (it can be saved)."""
        given = dict(zip(self._params, args))
        given.update(kwargs)
        for p in self._per_call:  # a parameter left out: its default's type
            if p not in given and p in self._defaults:
                given[p] = self._defaults[p]
        types = {p: self._type(p, given[p]) for p in self._per_call if p in given}
        key = tuple(sorted((p, str(t)) for p, t in types.items()))
        if key not in self._instances:
            self._instances[key] = self._make(types)
        return self._instances[key]

    def _type(self, p, value):
        """The instance's type for parameter p (Optional kept around a given tuple)."""
        from ember.ir import types as T
        t = value_type(value, f"{self.name}() argument {p!r}")
        ann = self.fn.__annotations__[p]
        args = getattr(ann, "__args__", None) or ()
        optional = type(None) in args or isinstance(ann, str) and "Optional" in ann
        return T.OptionalType(t) if optional and t != T.NONE else t

    def __call__(self, *args, **kwargs):
        return self.instance(*args, **kwargs)(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<ember.script {self.name} (Any parameters)>"


def _annotation_per_call(a) -> bool:
    """A Python annotation object (or string) that is Any or Tuple[T, ...]."""
    import typing
    if isinstance(a, str):
        try:
            return _per_call(ast.parse(a, mode="eval").body)
        except SyntaxError:
            return False
    if a is typing.Any:
        return True
    args = getattr(a, "__args__", None) or ()
    origin = getattr(a, "__origin__", None)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return True
    return any(_annotation_per_call(x) for x in args if x is not type(None))
