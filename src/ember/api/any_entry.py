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
                a.annotation is not None and _per_call(a.annotation)
                for a in node.args.args)}


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
