"""Compile-time values: what a name means when it is not a local variable.

A global name resolves to a Meta: a module (math, torch, typing), a Python
function to compile, a class, a builtin, a constant, an operator function
(math.sqrt, torch.relu), a typing construct (List, Optional). Scopes turn
names into Metas: PyScope reads a Python function's globals and closure,
UnitScope reads the top level of a CompilationUnit source.
"""

from __future__ import annotations

import builtins
import types

from ember import ops
from ember.ir import types as T


class Meta:
    """A compile-time value."""

    def describe(self) -> str:
        return type(self).__name__[1:].lower()


class MSlice(Meta):
    """A slice object, `slice(a, b, c)`: its bounds as an A.Slice whose parts read hidden
    variables (or None), evaluated once where the slice is made. It indexes lists, strings,
    tuples and tensors, and has .start, .stop, .step."""

    def __init__(self, node):
        self.node = node

    def describe(self):
        return "a slice object"


class MModule(Meta):
    def __init__(self, name: str, pyobj=None):
        self.name, self.pyobj = name, pyobj

    def describe(self):
        return f"module {self.name}"


class MFunction(Meta):
    """A Python function (or a CompilationUnit def) that ember compiles when called."""

    def __init__(self, info):
        self.info = info

    def describe(self):
        return f"function {self.info.name}"


class MClass(Meta):
    """A user class, NamedTuple or module type."""

    def __init__(self, info):
        self.info = info

    def describe(self):
        return f"class {self.info.name}"


class MBuiltin(Meta):
    """A Python builtin handled by the frontend (len, range, print, isinstance, ...)."""

    def __init__(self, name: str):
        self.name = name

    def describe(self):
        return f"builtin {self.name}"


class MException(Meta):
    """A builtin exception class (raise ValueError(...), except KeyError)."""

    def __init__(self, name: str):
        self.name = name
        """A builtin's name, or a user class as its name chain ("MyError:ValueError")."""
        self.init = None
        """A user class's __init__ and fields (frontend/exc_fields.ExcInit), if any."""

    @property
    def shown(self) -> str:
        return self.name.partition(":")[0]

    def describe(self):
        return f"exception class {self.shown}"


class MConst(Meta):
    def __init__(self, value):
        self.value = value

    def describe(self):
        return f"constant {self.value!r}"


class MOpFunc(Meta):
    """A function implemented by ember.ops operators, by Python qualname (math.sqrt)."""

    def __init__(self, qualname: str):
        self.qualname = qualname

    def describe(self):
        return self.qualname


class MTypeName(Meta):
    """A typing construct or builtin type used in annotations: List, Optional, int, Tensor."""

    def __init__(self, name: str):
        self.name = name

    def describe(self):
        return f"type {self.name}"


class MBoundMethod(Meta):
    """`obj.method` before it is called: the receiver value and the method name."""

    def __init__(self, receiver, name: str, span):
        self.receiver, self.name, self.span = receiver, name, span

    def describe(self):
        return f"method {self.name}"


class MLambda(Meta):
    """A lambda or nested def whose parameter types come from where it is used."""

    def __init__(self, node, captures, name: str, emitter):
        self.node, self.captures, self.name, self.emitter = node, captures, name, emitter
        self.instances: dict = {}
        self.depth = 0
        """How many comprehensions were open where the lambda was written."""

    def describe(self):
        return f"lambda {self.name}"


class MNested(Meta):
    """A nested def: a compiled function plus the enclosing variables it captures."""

    def __init__(self, info, captures, depth=0):
        self.info, self.captures = info, captures  # captures: [(name, type)]
        self.depth = depth
        """How many comprehensions were open where the def was written."""
        self.pending = None
        """(def node, parameter names) of a def compiled at its first use (it reads a
        variable assigned after it)."""
        self.generator = False
        """A nested generator function: never compiled on its own, inlined where it is
        iterated (frontend/generators.py)."""

    def describe(self):
        return f"function {self.info.node.name}"


class MOpaque(Meta):
    """A global that exists but that compiled code cannot use (a list, an object...)."""

    def __init__(self, name: str, what: str):
        self.name, self.what = name, what

    def describe(self):
        return f"global '{self.name}' ({self.what})"

    def message(self) -> str:
        return (f"global '{self.name}' is {self.what}; compiled code reads only constant "
                "globals (int, float, complex, str, bool, None and tuples of them), functions, "
                "classes "
                "and modules: pass it as an argument or make it a constant")


class MDtype(Meta):
    """torch.float32 and friends: a dtype constant (numpy name at run time)."""

    def __init__(self, numpy_name: str):
        self.numpy_name = numpy_name

    def describe(self):
        return f"dtype {self.numpy_name}"


class MHook(Meta):
    """A name whose meaning its scope supplies as code (the TorchScript importer's prelude:
    `torch.X` as aten operators, `annotate`, `CONSTANTS.cN`). `call` emits a call of it,
    `value` its value; the defaults report that it is neither callable nor a value."""

    name = "hook"

    def describe(self):
        return self.name

    def call(self, em, node, expected):
        return em.error(f"{self.describe()} is not callable", node.func.span)

    def value(self, em, node):
        return em.error(f"{self.describe()} cannot be used as a value here", node.span)


BUILTIN_FUNCS = {
    "len", "range", "print", "isinstance", "int", "float", "bool", "str", "abs", "min", "max",
    "sum", "sorted", "round", "divmod", "pow", "ord", "chr", "any", "all", "enumerate",
    "zip", "$zip_star", "reversed", "list", "dict", "tuple", "repr", "format", "hash", "id", "iter",
    "next", "map", "filter", "set", "frozenset", "type", "getattr", "setattr", "hasattr",
    "super", "open", "input", "eval", "exec", "compile", "globals", "locals", "vars",
    "callable", "hex", "oct", "bin", "ascii", "bytes", "bytearray", "complex", "object",
    "slice", "memoryview", "property", "staticmethod", "classmethod", "issubclass",
}
TYPE_NAMES = {"List", "Dict", "Tuple", "Optional", "Union", "Final", "Any", "Callable",
              "NamedTuple", "Tensor", "list", "dict", "tuple", "int", "float", "bool", "str",
              "Sequence", "Type", "Set", "set"}
TORCH_DTYPES = {
    "float32": "float32", "float": "float32", "float64": "float64", "double": "float64",
    "float16": "float16", "half": "float16", "int64": "int64", "long": "int64",
    "int32": "int32", "int": "int32", "int16": "int16", "short": "int16", "int8": "int8",
    "uint8": "uint8", "bool": "bool", "complex64": "complex64", "cfloat": "complex64",
    "complex128": "complex128", "cdouble": "complex128",
}


def classify(obj, name: str, compiler) -> Meta | None:
    """The Meta for a Python object found in a function's globals (None: not usable)."""
    if isinstance(obj, Meta):
        return obj
    op_name = getattr(obj, "__ember_op__", None) if callable(obj) else None
    if isinstance(op_name, str):  # an ember.nn.functional function: its operators
        return MOpFunc(op_name)
    if type(obj).__name__ == "dtype" and type(obj).__module__.startswith("ember."):
        return MDtype(str(obj))  # ember.nn.functional.float32 and friends
    if obj is None or isinstance(obj, (bool, int, float, complex, str)):
        return MConst(obj)
    if isinstance(obj, tuple) and all(isinstance(x, (bool, int, float, complex, str, type(None)))
                                      for x in obj):
        return MConst(obj)
    if isinstance(obj, types.ModuleType):
        return MModule(obj.__name__, obj)
    if isinstance(obj, types.FunctionType):
        return MFunction(compiler.function_info(obj))
    if isinstance(obj, type):
        return _classify_type(obj, compiler)
    if isinstance(obj, (types.BuiltinFunctionType, types.BuiltinMethodType)):
        return _classify_builtin(obj)
    return _classify_other(obj, compiler)


def _classify_type(obj, compiler):
    if obj.__module__ == "collections" and obj.__name__ == "OrderedDict":
        return MBuiltin("dict")  # as in TorchScript: dicts keep their insertion order
    if obj.__module__ == "builtins":
        if issubclass(obj, BaseException) and obj.__name__ in ops.EXCEPTION_CLASSES:
            return MException(obj.__name__)
        if obj.__name__ in BUILTIN_FUNCS or obj.__name__ in TYPE_NAMES:
            return MBuiltin(obj.__name__)
        return None
    if obj.__module__ in ("typing", "enum"):
        return MTypeName(obj.__name__)
    if (obj.__module__.startswith("torch") and obj.__name__ == "Tensor") or \
            (obj.__module__ == "numpy" and obj.__name__ == "ndarray"):
        return MTypeName("Tensor")
    if obj.__name__ == "dtype" and obj.__module__.startswith(("torch", "ember.")):
        return MTypeName("dtype")
    if obj.__name__ == "Future" and obj.__module__.startswith("torch"):
        return MTypeName("Future")  # torch.jit.Future[T]: a fork's value
    return compiler.class_meta(obj)


def _classify_builtin(obj):
    module = getattr(obj, "__module__", None) or ""
    if module == "builtins" and obj.__name__ in BUILTIN_FUNCS:
        return MBuiltin(obj.__name__)
    if module in ("warnings", "_warnings") and obj.__name__ == "warn":
        return MBuiltin("warnings.warn")
    if module in ("math", "cmath", "torch", "torch.nn.functional", "torch._C._nn",
                  "torch._C._VariableFunctions"):
        base = {"torch._C._nn": "torch.nn.functional",
                "torch._C._VariableFunctions": "torch"}.get(module, module)
        return MOpFunc(f"{base}.{obj.__name__}")
    return None


def _classify_other(obj, compiler):
    typing_name = getattr(obj, "_name", None) or getattr(getattr(obj, "__origin__", None),
                                                         "__name__", None)
    if type(obj).__module__ == "typing" and typing_name:
        return MTypeName(typing_name)
    if type(obj).__name__ == "dtype" and type(obj).__module__ == "torch":
        return MDtype(TORCH_DTYPES.get(str(obj).split(".")[-1], "float32"))
    module_meta = compiler.module_object_meta(obj)
    if module_meta is not None:
        return module_meta
    mod = getattr(obj, "__module__", "") or ""
    if callable(obj) and (mod.startswith("torch") or mod == "math"):
        qual = getattr(obj, "__name__", None)
        if qual:
            base = "torch.nn.functional" if "functional" in mod or mod == "torch._C._nn" \
                else ("math" if mod == "math" else "torch")
            return MOpFunc(f"{base}.{qual}")
    return None


class PyScope:
    """Names of a Python function: its closure cells, its module globals, then builtins."""

    def __init__(self, fn, compiler):
        self.fn = fn
        self.compiler = compiler
        self.globals = fn.__globals__
        self.cells = {}
        code = getattr(fn, "__code__", None)
        if code is not None and fn.__closure__:
            for name, cell in zip(code.co_freevars, fn.__closure__):
                try:
                    self.cells[name] = cell.cell_contents
                except ValueError:
                    pass

    def lookup(self, name: str) -> Meta | None:
        for table in (self.cells, self.globals):
            if name in table:
                obj = table[name]
                meta = classify(obj, name, self.compiler)
                if meta is None:
                    meta = MOpaque(name, _what(obj))
                return _exception_or(meta)
        return builtin_meta(name)


def _what(obj) -> str:
    kind = type(obj).__name__
    if isinstance(obj, (list, dict, set, tuple)):
        return f"a {kind}"
    return f"a {kind} object" if not isinstance(obj, type) else f"the class {obj.__name__}"


def builtin_meta(name: str) -> Meta | None:
    if name in ops.EXCEPTION_CLASSES:
        return MException(name)
    if name in BUILTIN_FUNCS:
        return MBuiltin(name)
    if name in ("int", "float", "bool", "str"):
        return MBuiltin(name)
    obj = getattr(builtins, name, None)
    if obj is not None and name in ("True", "False", "None"):
        return MConst(obj)
    return None


class UnitScope:
    """Names of a CompilationUnit's top level (imports, constants, defs, classes)."""

    def __init__(self, table: dict, compiler):
        self.table = table
        self.compiler = compiler

    def lookup(self, name: str) -> Meta | None:
        if name in self.table:
            return _exception_or(self.table[name])
        return builtin_meta(name)


def _exception_or(meta):
    """A user class derived from an exception class is an exception class (MException of
    its name chain); other metas are themselves."""
    if isinstance(meta, MClass):
        from ember.frontend.classes import exception_meta
        return exception_meta(meta.info) or meta
    return meta


def scalar_type_of(value) -> T.Type | None:
    """The IR type of a Python constant (None if it has none)."""
    if isinstance(value, bool):
        return T.BOOL
    if isinstance(value, int):
        return T.I64
    if isinstance(value, float):
        return T.F64
    if isinstance(value, complex):
        return T.C128
    if isinstance(value, str):
        return T.STR
    if value is None:
        return T.NONE
    return None
