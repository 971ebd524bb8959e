"""Building a runnable module from a Program: bind, verify, translate, compile.

`build(program)` binds the program's operators to ember.ops kernels (every
missing operator is reported at once), checks every type string, verifies
all bytecode, translates each function to a Python function sharing one
globals dict (whose `__builtins__` is empty) and returns a LoadedModule.
"""

from __future__ import annotations

import ast
import functools
import operator

import numpy as np

from ember import ops
from ember.errors import ArtifactError
from ember.mobile import types as RT
from ember.mobile.boundary import LoadedModule
from ember.mobile.fused import FusedGroup
from ember.mobile.program import SPECIAL_METHODS
from ember.mobile.quant_check import check_quantized
from ember.mobile.translate import FunctionTranslator, compile_function
from ember.mobile.verify import verify_program
from ember.ops.int64 import overflow_error
from ember.ops.tensor_common import frozen, seal


class ProgramEnv:
    """The globals dict shared by a program's translated functions, and its name table.

    Every name in it is generated here (`_k3`, `_cls0`, `_c2_5`, `_isinst1`, ...); values
    from the artifact appear only as values, never as names.
    """

    def __init__(self, program, kernels, fused_group=FusedGroup):
        self.program = program
        self.fused_group = fused_group
        """What a fused group constant becomes (the LLVM backend passes its native twin)."""
        self.globals = {
            "__builtins__": {}, "_range": range, "_len": len, "_float": float,
            "_partial": functools.partial, "_ovf": overflow_error,
            "_unreachable": _unreachable,
        }
        for i, k in enumerate(kernels):
            self.globals[f"_k{i}"] = k
        guards: dict = {}
        self.classes = make_classes(program.classes, self.globals, guards)
        for i, cls in enumerate(self.classes):
            self.globals[f"_cls{i}"] = cls
        self.class_by_name = {c.name: cls for c, cls in zip(program.classes, self.classes)}
        for c in program.classes:
            for name, fi in c.methods.items():
                if SPECIAL_METHODS[name] == 2:
                    f = program.functions[fi]
                    guards[fi] = (RT.checker(RT.parse(f.param_types[1]), self.class_by_name),
                                  f"{c.name}.{name}() argument {f.params[1]!r} must be "
                                  f"{RT.show(RT.parse(f.param_types[1]))}, got ")
        self.objects = build_objects(program, self.classes, self.class_by_name)
        self._names: dict = {}

    def kernel(self, i: int) -> str:
        """The global name of operator i's kernel."""
        return f"_k{i}"

    def constant(self, fi: int, k: int, c) -> str:
        """The global name holding constant k of function fi (a tensor, an object, or a
        fused group, bound to its kernels: mobile/fused.py)."""
        name = f"_c{fi}_{k}"
        if name not in self.globals:
            if c[0] == "fused":
                self.globals[name] = self.fused_group(c)
            else:
                self.globals[name] = self.program.tensors[c[1]][1] if c[0] == "tensor" \
                    else self.objects[c[1]]
        return name

    def type_helper(self, prefix: str, type_text: str) -> str:
        """The global name of an isinstance (`_isinst`) or narrowing (`_narrow`) check."""
        key = (prefix, type_text)
        if key not in self._names:
            name = f"{prefix}{len(self._names)}"
            check = RT.checker(RT.parse(type_text), self.class_by_name)
            self.globals[name] = check if prefix == "_isinst" else _narrower(check, type_text)
            self._names[key] = name
        return self._names[key]

    def exception_tuple(self, names) -> str:
        """The global name of the exception classes an EXCEPT catches."""
        key = ("exc",) + tuple(names)
        if key not in self._names:
            name = f"_exc{len(self._names)}"
            self.globals[name] = tuple(ops.exception_class(n) for n in names) or Exception
            self._names[key] = name
        return self._names[key]


def _prepare_numpy() -> None:
    """Let numpy finish its lazy setup now, in a frame with real builtins.

    numpy imports the implementations of ndarray.__str__/__repr__ on first use, through
    the builtins of the calling frame. Translated code runs with empty `__builtins__`, so
    a first `str(tensor)` there failed ("Unable to configure default ndarray.__str__")."""
    for v in (np.zeros((1, 1), np.float32), np.zeros((), np.int64), np.float32(0.5),
              np.int64(1), np.bool_(True)):
        str(v), repr(v), format(v, "")


_prepare_numpy()


def _unreachable():
    return RuntimeError("ember: reached code marked unreachable (a corrupt program?)")


def _narrower(check, type_text):
    shown = RT.show(RT.parse(type_text))

    def narrow(v):
        if check(v):
            return v
        raise TypeError(f"expected a value of type {shown}, got {RT.describe(v)}")
    return narrow


# ----------------------------------------------------------------------------- classes


class ScriptObject:
    """Base of the classes of script objects; fields live in slots f0, f1, ..."""

    __slots__ = ()
    _field_names: tuple = ()

    def __getattr__(self, name):
        names = type(self)._field_names
        if name in names:
            return getattr(self, f"f{names.index(name)}")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __repr__(self):
        fields = ", ".join(f"{n}={getattr(self, f'f{i}', None)!r}"
                           for i, n in enumerate(type(self)._field_names))
        return f"{type(self).__name__}({fields})"


def _object_init(self, *values):
    for i, v in enumerate(values):
        setattr(self, f"f{i}", v)


def _namedtuple_new(cls, *values):
    return tuple.__new__(cls, values)


def _namedtuple_repr(self):
    return f"{type(self).__name__}(" + ", ".join(
        f"{n}={v!r}" for n, v in zip(self._fields, self)) + ")"


def make_classes(infos, globals_=None, guards=None) -> list:
    """Python classes for the program's classes. Field names from the artifact become
    read-only properties of namedtuples only when they are plain public identifiers;
    slots are always the generated names f0, f1, ... A class's special methods call the
    translated functions `_fnN` of `globals_`; a binary one raises TypeError for an
    operand its parameter type does not admit (`guards[N]`: check and message, filled in
    later), as the script function could not run on it (`None` in a List[Optional[V]])."""
    out = []
    for info in infos:
        n = len(info.fields)
        if info.kind == "namedtuple":
            ns = {f"f{i}": property(operator.itemgetter(i)) for i in range(n)}
            for i, field in enumerate(info.fields):
                if field.isidentifier() and not field.startswith("_") and \
                        not hasattr(tuple, field) and field not in ns:
                    ns[field] = property(operator.itemgetter(i))
            ns.update({"__slots__": (), "_fields": tuple(info.fields),
                       "__new__": _namedtuple_new, "__repr__": _namedtuple_repr})
            out.append(type(_class_name(info.name), (tuple,), ns))
            continue
        ns = {"__slots__": tuple(f"f{i}" for i in range(n)), "__init__": _object_init,
              "_field_names": tuple(info.fields), "_field_types": tuple(info.field_types)}
        for name, fi in info.methods.items():
            ns[name] = _special_method(name, fi, globals_, guards)
        out.append(type(_class_name(info.name), (ScriptObject,), ns))
    return out


def _special_method(name, fi, globals_, guards):
    key = f"_fn{fi}"
    if SPECIAL_METHODS[name] == 1:
        def method(self):
            return globals_[key](self)
    else:
        def method(self, other):
            check, message = guards[fi]
            if not check(other):
                raise TypeError(message + RT.describe(other))
            return globals_[key](self, other)
    method.__name__ = method.__qualname__ = name
    return method


def _class_name(name: str) -> str:
    """The Python class name for a script class (names Python rejects are replaced)."""
    if "\0" in name or not name.isprintable() or len(name) > 200:
        return "ScriptClass"
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return "ScriptClass"
    return name


# ----------------------------------------------------------------------------- objects


def build_objects(program, classes, class_by_name) -> list:
    """The program's constant objects, built from data in table order; every field value
    is checked against its declared type (ArtifactError otherwise)."""
    out = []
    for i, (ci, values) in enumerate(program.objects):
        info = program.classes[ci]
        if info.kind not in ("class", "module") or len(values) != len(info.fields):
            raise ArtifactError(f"object {i} does not fit class {info.name!r:.60} (kind "
                                f"{info.kind}, {len(info.fields)} fields)")
        fields = [_materialize(v, program, out) for v in values]
        for name, text, v in zip(info.fields, info.field_types, fields):
            if not RT.checker(RT.parse(text), class_by_name)(v):
                raise ArtifactError(f"object {i}: field {name!r:.60} of type {text:.80} holds "
                                    f"{RT.describe(v)}")
        out.append(classes[ci](*fields))
        if info.kind == "class":  # an Enum's members (the only constant plain objects)
            cls = classes[ci]
            cls._ember_constants = getattr(cls, "_ember_constants", ()) + (out[-1],)
    return out


def _materialize(v, program, objects):
    from ember.mobile.program import Ref

    if type(v) is Ref:
        return program.tensors[v.index][1] if v.kind == "tensor" else objects[v.index]
    if type(v) is list:
        return [_materialize(x, program, objects) for x in v]
    if type(v) is tuple:
        return tuple(_materialize(x, program, objects) for x in v)
    if type(v) is dict:
        return {k: _materialize(x, program, objects) for k, x in v.items()}
    return v


# ----------------------------------------------------------------------------- build


def bind_kernels(program) -> list:
    """The kernel of each operator name; ArtifactError listing every missing one."""
    missing = [n for n in program.operators if ops.get(n) is None]
    if missing:
        shown = ", ".join(n[:80] for n in missing[:50]) + (", ..." if len(missing) > 50 else "")
        raise ArtifactError(f"artifact needs {len(missing)} operator(s) this runtime does not "
                            f"have: {shown} (upgrade ember on this device)")
    return [ops.get(n).kernel for n in program.operators]


def check_types(program) -> None:
    """Every signature and field type string parses and names only declared classes
    (ArtifactError otherwise)."""
    texts = [t for f in program.functions for t in f.param_types + [f.ret_type]]
    texts += [t for c in program.classes for t in c.field_types]
    declared = {c.name for c in program.classes}
    for text in texts:
        try:
            t = RT.parse(text)
        except RT.TypeSyntaxError as e:
            raise ArtifactError(f"bad type in the program: {e}") from None
        unknown = [n for n in RT.class_names(t) if n not in declared]
        if unknown:
            raise ArtifactError(f"type {text!r:.80} names class {unknown[0]!r:.60}, which "
                                "the program does not declare")


def settle_tensors(program) -> None:
    """Read-only tensors for a program that never writes one in place (kernels may then
    cache what they derive from them); writable ones for a program that may. Tensors
    already frozen (an artifact's mapped or read bytes) are used as they are; others are
    copied once (`seal`), as are read-only ones a mutable program could write."""
    settled = []
    for name, a in program.tensors:
        if program.mutable_tensors:
            a = a if a.flags.writeable else a.copy()
        elif not frozen(a):
            a = seal(a)
        settled.append((name, a))
    program.tensors = settled
    if program.mutable_tensors:  # every tensor is a copy now: the file mapping can go
        program.mapping = None


def build(program, fused_group=FusedGroup, kernel_map=None) -> LoadedModule:
    """Verify, bind and translate a Program; the result runs its entry points.
    fused_group: the class fused groups are bound to (in process, the LLVM backend passes
    a subclass that runs groups natively; a loaded artifact always gets FusedGroup).
    kernel_map(name, kernel) -> kernel: what runs each operator (the LLVM backend swaps in
    native kernels, which fall back to the given one for what they do not cover)."""
    kernels = bind_kernels(program)
    if kernel_map is not None:
        kernels = [kernel_map(n, k) for n, k in zip(program.operators, kernels)]
    settle_tensors(program)
    check_types(program)
    trees = verify_program(program, ops.ExceptionNames())
    check_quantized(program)
    env = ProgramEnv(program, kernels, fused_group)
    fns = []
    for i, (f, tree) in enumerate(zip(program.functions, trees)):
        try:
            fdef = FunctionTranslator(program, i, tree, env).build()
            fn = compile_function(fdef, _filename(program, f), f.display_name, env.globals)
        except Exception as e:  # noqa: BLE001 - verified code always compiles; never crash
            raise ArtifactError(f"function {f.name!r:.80} cannot be translated: "
                                f"{type(e).__name__}: {e}") from None
        env.globals[f"_fn{i}"] = fn
        fns.append(fn)
    return LoadedModule(program, fns, env.class_by_name)


def translated_source(program) -> str:
    """The Python text of every translated function (ast.unparse), for tests and debugging.

    Never compiled: build() compiles the trees themselves."""
    kernels = bind_kernels(program)
    trees = verify_program(program, ops.ExceptionNames())
    check_quantized(program)
    env = ProgramEnv(program, kernels)
    out = []
    for i, tree in enumerate(trees):
        fdef = FunctionTranslator(program, i, tree, env).build()
        ast.fix_missing_locations(fdef)
        out.append(ast.unparse(fdef))
    return "\n\n".join(out)


def _filename(program, f) -> str:
    for _, src, _ in f.lines:
        if 0 <= src < len(program.sources):
            return program.sources[src][0]
    return f"<ember:{f.name}>"
