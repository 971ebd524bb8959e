"""Annotations -> IR types: int, List[int], Optional[Tensor], Dict[str, float], classes.

Accepts typing's spellings (List, Dict, Tuple, Optional, Union, Final,
Callable), builtin generics (list[int]), torch.Tensor / Tensor, string
annotations, NamedTuple and user classes. Anything else is an error naming
the annotation.
"""

from __future__ import annotations

from ember.errors import (
    NameResolutionError,
    ParseError,
    Source,
    TypeCheckError,
    UnsupportedError,
)
from ember.frontend import ast as A
from ember.frontend.meta import MBuiltin, MClass, MConst, MException, MModule, MTypeName
from ember.frontend.typing_ import ERROR
from ember.ir import types as T

_NO_SUCH_TYPE = {
    "bytes": "ember has no bytes type; use str or List[int]",
    "bytearray": "ember has no bytes type; use List[int]",
    "frozenset": "ember has no frozenset; use Set[T] (a set) or a tuple",
    "object": "ember needs a concrete type; use a Union of the possible types",
}
_SIMPLE = {"int": T.I64, "float": T.F64, "complex": T.C128, "bool": T.BOOL, "str": T.STR, "None": T.NONE,
           "Tensor": T.TENSOR, "NoneType": T.NONE, "dtype": T.DTYPE, "Device": T.STR}
"""(A torch.device is its string in ember, as x.device is: "cpu", "cuda:1".)"""


TENSOR_OF_DTYPE = "__ember_tensor_"
"""`__ember_tensor_int64`: a Tensor of that dtype, the parameter type of the wrapper an
entry calling `.item()` is compiled through for the dtypes it is given (api/any_entry)."""
TENSOR_DTYPES = {"bool": "bool", "uint8": "u8", "int8": "i8", "int16": "i16", "int32": "i32",
                 "int64": "i64", "float16": "f16", "float32": "f32", "float64": "f64",
                 "complex64": "c64", "complex128": "c128"}
"""numpy's dtype names -> the IR's (mobile/types.NUMPY_DTYPE inverted)."""


TENSOR_KEYS = ("a dict with Tensor keys is not supported (TorchScript hashes a tensor by "
               "identity; ember's tensors are numpy arrays, which have no hash): key it by an "
               "int or str, or keep the tensors in a list")


_TYPING = {"List", "Dict", "Tuple", "Optional", "Union", "Callable", "Final", "Sequence",
           "Set"}
"""typing names an annotation may use; a message suggests importing them."""


class AnnotationResolver:
    def __init__(self, emitter):
        self.em = emitter

    def error(self, message, span):
        self.em.c.report(TypeCheckError(message, span))
        return ERROR

    def resolve(self, node) -> T.Type:
        if isinstance(node, A.Constant):
            if node.value is None:
                return T.NONE
            if isinstance(node.value, str):
                return self._string(node)
        name = self._name_of(node)
        if name is not None:
            return self._named(name, node)
        if isinstance(node, A.Subscript):
            return self._generic(node)
        if isinstance(node, A.BinOp) and node.op == "|":
            return T.make_union([self.resolve(node.left), self.resolve(node.right)])
        alias = self._size_alias(node)
        if alias is not None:
            return alias
        return self.unknown(node)

    def _size_alias(self, node):
        """torch.nn.common_types' `_size_2_t` (int or a tuple of ints) and `_ratio_2_t`
        (float or a tuple of floats) and their kin: TorchScript reads them as
        BroadcastingListN[int] / [float], a list (a tuple argument converts to it)."""
        import re

        if isinstance(node, A.Name):
            meta = self.em.scope.lookup(node.id)
            full = meta.name if isinstance(meta, MModule) else ""
        elif isinstance(node, A.Attribute):
            full = self.em.expr_text(node)
        else:
            return None
        m = re.fullmatch(r"(?:.*\.)?common_types\._(size|ratio)_(\d|any)_t", full)
        if m is None:
            return None
        return T.ListType(T.I64 if m.group(1) == "size" else T.F64)

    def unknown(self, node) -> T.Type:
        """The error for an annotation that names no type ember knows."""
        if isinstance(node, A.Name):
            meta = self.em.scope.lookup(node.id)
            if meta is None:
                hint = f" (import it: from typing import {node.id})" \
                    if node.id in _TYPING else ""
                self.em.c.report(NameResolutionError(
                    f"unknown type '{node.id}' in annotation (name is not defined){hint}",
                    node.span))
                return ERROR
            if node.id in _NO_SUCH_TYPE:
                self.em.c.report(UnsupportedError(
                    f"'{node.id}' is not supported: {_NO_SUCH_TYPE[node.id]}", node.span))
                return ERROR
            return self.error(f"'{node.id}' ({meta.describe()}) is not a type ember supports "
                              "in annotations", node.span)
        if isinstance(node, A.Attribute):
            return self.error(f"'{self.em.expr_text(node)}' is not a type ember supports in "
                              "annotations", node.span)
        return self.error("unsupported type annotation (use int, float, bool, str, Tensor, "
                          "List[T], Dict[K, V], Tuple[...], Optional[T], Union[...] or a "
                          "class)", node.span)

    def _string(self, node):
        from ember.frontend.parser import parse_expression

        try:
            expr = parse_expression(node.value, self.em.source, node.span.line,
                                    node.span.col + 1)
        except ParseError:
            return self.error(f"cannot parse the annotation {node.value!r}", node.span)
        return self.resolve(expr)

    def _name_of(self, node) -> str | None:
        """The meaning of a bare annotation name: 'int', 'Tensor', a class, ..."""
        if isinstance(node, A.Name):
            if (node.id in _SIMPLE or node.id.startswith(TENSOR_OF_DTYPE)) and \
                    self.em.scope.lookup(node.id) is None:
                return node.id
            meta = self.em.scope.lookup(node.id)
            return self._meta_name(meta, node)
        if isinstance(node, A.Attribute):
            base = node.value
            if isinstance(base, A.Name):
                meta = self.em.scope.lookup(base.id)
                if isinstance(meta, MModule):
                    if meta.name.startswith("torch") and node.attr == "Tensor":
                        return "Tensor"
                    if (meta.name == "numpy" and node.attr == "ndarray") or \
                            (meta.name.startswith("ember") and node.attr == "Tensor"):
                        return "Tensor"  # what a Tensor is at run time: np.ndarray
                    if meta.name.startswith(("torch", "ember")) and node.attr == "dtype":
                        return "dtype"  # torch.dtype, ember.nn.functional.dtype
                    if meta.name == "torch" and node.attr == "device":
                        return "Device"
                    if meta.name == "typing":
                        return node.attr
                    if meta.name == "torch.jit" and node.attr == "Future":
                        return "Future"
            if node.attr == "Future" and isinstance(base, A.Attribute) and \
                    base.attr == "jit" and isinstance(base.value, A.Name) and \
                    isinstance(self.em.scope.lookup(base.value.id), MModule) and \
                    self.em.scope.lookup(base.value.id).name == "torch":
                return "Future"  # torch.jit.Future[T]
        return None

    def mentions_any(self, node) -> bool:
        """Whether an annotation is or holds `Any` (List[Any], Optional[Any], ...)."""
        from ember.frontend.env import walk
        return node is not None and any(
            isinstance(n, (A.Name, A.Attribute)) and self._name_of(n) == "Any"
            for n in walk(node))

    def _meta_name(self, meta, node):
        if isinstance(meta, MTypeName):
            return meta.name
        if isinstance(meta, MBuiltin) and meta.name in ("int", "float", "complex", "bool", "str",
                                                        "list", "dict", "tuple", "set"):
            return meta.name
        if isinstance(meta, MClass):
            return meta
        if isinstance(meta, MException):
            return "Exception"
        if isinstance(meta, MConst) and meta.value is None:
            return "None"
        if meta is None and node.id in _SIMPLE:
            return node.id
        return None

    def _named(self, name, node) -> T.Type:
        if isinstance(name, MClass):
            from ember.frontend.polymorph import (class_annotation, interface_annotation,
                                                  is_interface)
            if is_interface(name.info):
                return interface_annotation(self.em, name.info, node)
            decl = self.em.c.declare_class(name.info)
            if decl is None:
                return ERROR
            return class_annotation(self.em, name.info, decl)
        if name in _SIMPLE:
            return _SIMPLE[name]
        if isinstance(name, str) and name.startswith(TENSOR_OF_DTYPE) and \
                name[len(TENSOR_OF_DTYPE):] in TENSOR_DTYPES:
            return T.TensorType(dtype=TENSOR_DTYPES[name[len(TENSOR_OF_DTYPE):]])
        if name == "Exception":
            return T.EXC
        if name in ("List", "list"):
            return T.ListType(T.TENSOR)
        if name in ("Dict", "dict"):
            return T.DictType(T.STR, T.TENSOR)
        if name in ("Tuple", "tuple"):
            return self.error("a tuple annotation needs element types (Tuple[int, str])",
                              node.span)
        if name in ("Set", "set", "AbstractSet"):
            return self.error("a set annotation needs its element type (Set[int])", node.span)
        if name == "Any":
            return self.error("'Any' is only supported on the parameters and the return of a "
                              "function (compiled for the argument types of each call) and on "
                              "a local variable assigned where it is declared; use a concrete "
                              "type or a Union here", node.span)
        return self.error(f"unknown type '{name}' in annotation", node.span)

    def _generic(self, node: A.Subscript) -> T.Type:
        head = self._name_of(node.value)
        args = node.slice.elts if isinstance(node.slice, A.Tuple) else [node.slice]
        last = getattr(node.value, "attr", None) or getattr(node.value, "id", "")
        if head is None and last[:-1] == "BroadcastingList" and last[-1].isdigit():
            return T.ListType(self.resolve(args[0]))  # TorchScript's BroadcastingListN[T]
        if head in ("List", "list", "Sequence"):
            return T.ListType(self.resolve(args[0]))
        if head == "Iterator" and len(args) == 1:
            return T.IterType(self.resolve(args[0]))
        if head in ("Set", "set", "AbstractSet"):
            from ember.frontend.sets import check_elem
            elem = self.resolve(args[0])
            if len(args) != 1 or not check_elem(self.em, elem, node.span):
                return ERROR if len(args) == 1 else self.error("Set takes one element type",
                                                               node.span)
            return T.SetType(elem)
        if head in ("Dict", "dict"):
            if len(args) != 2:
                return self.error("Dict needs a key and a value type", node.span)
            key = self.resolve(args[0])
            if isinstance(key, T.TensorType):
                self.em.c.report(UnsupportedError(TENSOR_KEYS, args[0].span))
                return ERROR
            return T.DictType(key, self.resolve(args[1]))
        if head in ("Tuple", "tuple"):
            if len(args) == 1 and isinstance(args[0], A.Tuple) and not args[0].elts:
                return T.TupleType(())
            if len(args) == 2 and isinstance(args[1], A.Constant) and args[1].value is ...:
                return T.VarTupleType(self.resolve(args[0]))  # a tuple of run-time length
            return T.TupleType(tuple(self.resolve(a) for a in args))
        if head == "Optional":
            return T.make_union([self.resolve(args[0]), T.NONE])
        if head == "Union":
            return T.make_union([self.resolve(a) for a in args])
        if head == "Final" or head == "Future" and len(args) == 1:
            return self.resolve(args[0])  # torch.jit.Future[T]: a fork's value (run at once)
        if head == "Callable":
            return self._callable(node, args)
        base = node.value
        name = base.id if isinstance(base, A.Name) else getattr(base, "attr", None)
        if isinstance(base, A.Name) and self.em.scope.lookup(base.id) is None and \
                base.id not in _SIMPLE:
            hint = f" (import it: from typing import {base.id})" if base.id in _TYPING else ""
            self.em.c.report(NameResolutionError(
                f"unknown type '{base.id}' in annotation (name is not defined){hint}",
                base.span))
            return ERROR
        if name is not None and name.lower() in _NO_SUCH_TYPE:
            self.em.c.report(UnsupportedError(
                f"'{name}[...]' is not supported: {_NO_SUCH_TYPE[name.lower()]}", node.span))
            return ERROR
        return self.error(f"unsupported generic type annotation"
                          f"{f' {name!r}' if name else ''}", node.span)

    def _callable(self, node, args):
        if len(args) != 2 or not isinstance(args[0], A.List):
            return self.error("Callable annotations look like Callable[[int, str], float]",
                              node.span)
        return T.FunctionType(tuple(self.resolve(a) for a in args[0].elts), self.resolve(args[1]))


__all__ = ["AnnotationResolver", "Source"]
