"""Loaded programs: translate verified bytecode once, then call entry points safely.

`build(program)` verifies the program, binds its operators to ember.ops
kernels (every missing operator is reported at once), translates every
function and returns a LoadedModule. Calls go through LoadedFunction, the call
boundary: arguments are checked against the entry's typed signature (a
CallError — a TypeError — names the parameter and both types), and an
exception raised by script code keeps its type and message and gains a note
with the script traceback (file:line and source line of each script frame).
"""

from __future__ import annotations

import functools
import operator

from ember import ops
from ember.errors import ArtifactError, CallError
from ember.mobile import types as RT
from ember.mobile.translate import FunctionTranslator, compile_function
from ember.mobile.verify import verify_program
from ember.ops.int64 import overflow_error

_NO_DEFAULT = object()


class ProgramEnv:
    """The globals dict shared by a program's translated functions, and its name table."""

    def __init__(self, program, kernels):
        self.program = program
        self.globals = {
            "__builtins__": {}, "_range": range, "_len": len, "_float": float,
            "_partial": functools.partial, "_ovf": overflow_error,
            "_unreachable": _unreachable,
        }
        for i, k in enumerate(kernels):
            self.globals[f"_k{i}"] = k
        self.classes = make_classes(program.classes)
        for i, cls in enumerate(self.classes):
            self.globals[f"_cls{i}"] = cls
        self.class_by_name = {c.name: cls for c, cls in zip(program.classes, self.classes)}
        self._names: dict = {}

    def kernel(self, i: int) -> str:
        return f"_k{i}"

    def constant(self, fi: int, k: int, c) -> str:
        name = f"_c{fi}_{k}"
        if name not in self.globals:
            tag, val = c
            if tag != "tensor":
                raise ArtifactError(f"constant {k} of function {fi} cannot be loaded")
            self.globals[name] = self.program.tensors[val][1]
        return name

    def type_helper(self, prefix: str, type_text: str) -> str:
        key = (prefix, type_text)
        if key not in self._names:
            name = f"{prefix}{len(self._names)}"
            check = RT.checker(RT.parse(type_text), self.class_by_name)
            self.globals[name] = check if prefix == "_isinst" else _narrower(check, type_text)
            self._names[key] = name
        return self._names[key]

    def exception_tuple(self, names) -> str:
        key = ("exc",) + tuple(names)
        if key not in self._names:
            name = f"_exc{len(self._names)}"
            self.globals[name] = tuple(ops.EXCEPTION_CLASSES[n] for n in names) or Exception
            self._names[key] = name
        return self._names[key]


def _unreachable():
    return RuntimeError("ember: reached code marked unreachable (a corrupt artifact?)")


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


def make_classes(infos) -> list:
    """Python classes for the program's classes (no code from the artifact is involved)."""
    out = []
    for info in infos:
        n = len(info.fields)
        if info.kind == "namedtuple":
            ns = {f"f{i}": property(operator.itemgetter(i)) for i in range(n)}
            for i, field in enumerate(info.fields):
                if field.isidentifier() and not field.startswith("_") and \
                        not hasattr(tuple, field):
                    ns[field] = property(operator.itemgetter(i))
            ns.update({"__slots__": (), "_fields": tuple(info.fields),
                       "__new__": lambda cls, *vals: tuple.__new__(cls, vals),
                       "__repr__": _namedtuple_repr})
            out.append(type(str(info.name), (tuple,), ns))
            continue
        ns = {"__slots__": tuple(f"f{i}" for i in range(n)), "__init__": _object_init,
              "_field_names": tuple(info.fields)}
        out.append(type(str(info.name), (ScriptObject,), ns))
    return out


def _namedtuple_repr(self):
    return f"{type(self).__name__}(" + ", ".join(
        f"{n}={v!r}" for n, v in zip(self._fields, self)) + ")"


# ----------------------------------------------------------------------------- build


def bind_kernels(program) -> list:
    """The kernel of each operator name; ArtifactError listing every missing one."""
    missing = [n for n in program.operators if ops.get(n) is None]
    if missing:
        raise ArtifactError(f"artifact needs {len(missing)} operator(s) this runtime does not "
                            f"have: {', '.join(missing)} (upgrade ember on this device)")
    return [ops.get(n).kernel for n in program.operators]


def check_types(program) -> None:
    """Every type string in the program parses (ArtifactError otherwise)."""
    texts = [t for f in program.functions for t in f.param_types + [f.ret_type]]
    texts += [t for c in program.classes for t in c.field_types]
    for text in texts:
        try:
            RT.parse(text)
        except RT.TypeSyntaxError as e:
            raise ArtifactError(f"bad type in artifact: {e}") from None


def build(program) -> "LoadedModule":
    """Verify, bind and translate a Program; the result runs its entry points."""
    kernels = bind_kernels(program)
    check_types(program)
    trees = verify_program(program, ops.EXCEPTION_CLASSES)
    env = ProgramEnv(program, kernels)
    fns = []
    for i, (f, tree) in enumerate(zip(program.functions, trees)):
        fdef = FunctionTranslator(program, i, tree, env).build()
        try:
            fn = compile_function(fdef, _filename(program, f), f.name, env.globals)
        except (SyntaxError, ValueError, TypeError, RecursionError, MemoryError) as e:
            raise ArtifactError(f"function {f.name!r} cannot be translated: {e}") from None
        env.globals[f"_fn{i}"] = fn
        fns.append(fn)
    return LoadedModule(program, fns, env)


def _filename(program, f) -> str:
    for _, src, line in f.lines:
        if 0 <= src < len(program.sources):
            return program.sources[src][0]
    return f"<ember:{f.name}>"


class LoadedModule:
    """A loaded program. Calling it runs the default entry; other entries are attributes."""

    def __init__(self, program, fns, env):
        self.program = program
        self._fns = fns
        self._env = env
        codes = {fn.__code__: i for i, fn in enumerate(fns)}
        sources = {name: text.splitlines() for name, text in program.sources}
        self._entries = {name: LoadedFunction(program.functions[i], fns[i], codes, sources,
                                              env.class_by_name)
                         for name, i in program.entries.items()}
        default = program.default_entry or next(iter(program.entries), None)
        self._default = self._entries.get(default)

    def __call__(self, *args, **kwargs):
        if self._default is None:
            raise TypeError("this artifact has no entry point")
        return self._default(*args, **kwargs)

    def entry(self, name: str) -> "LoadedFunction":
        try:
            return self._entries[name]
        except KeyError:
            raise AttributeError(f"no entry point {name!r}; entries: "
                                 f"{', '.join(self._entries)}") from None

    @property
    def entries(self) -> list[str]:
        return list(self._entries)

    def __getattr__(self, name):
        entries = self.__dict__.get("_entries", {})
        if name in entries:
            return entries[name]
        raise AttributeError(f"loaded module has no entry point {name!r}")

    def __dir__(self):
        return list(super().__dir__()) + list(self._entries)


class LoadedFunction:
    """An entry point: typed-argument checks, then the translated function."""

    def __init__(self, f, fn, codes, sources, classes):
        self.name = f.name
        self._f = f
        self._fn = fn
        self._codes = codes
        self._sources = sources
        types = [RT.parse(t) for t in f.param_types]
        self._checks = [RT.checker(t, classes) for t in types]
        self._converters = [(i, c) for i, c in enumerate(RT.converter(t, classes)
                                                         for t in types) if c is not None]
        self._shown = [RT.show(t) for t in types]
        nd = len(f.defaults)
        self._defaults = [_NO_DEFAULT] * (f.nparams - nd) + list(f.defaults)
        self.signature = f"{f.name}(" + ", ".join(
            f"{p}: {s}" for p, s in zip(f.params, self._shown)) + f") -> " + \
            RT.show(RT.parse(f.ret_type))

    def __call__(self, *args, **kwargs):
        if kwargs or len(args) != len(self._checks):
            args = self._bind(args, kwargs)
        if self._converters:
            args = list(args)
            for i, conv in self._converters:
                args[i] = conv(args[i])
        checks = self._checks
        for i, v in enumerate(args):
            if not checks[i](v):
                self._bad_arg(i, v)
        try:
            return self._fn(*args)
        except BaseException as e:
            self._note(e)
            raise

    def _bind(self, args, kwargs):
        params = self._f.params
        if len(args) > len(params):
            raise CallError(f"{self.name}() takes {len(params)} argument(s) but "
                            f"{len(args)} were given")
        out = list(args) + [_NO_DEFAULT] * (len(params) - len(args))
        for k, v in kwargs.items():
            if k not in params:
                raise CallError(f"{self.name}() got an unexpected keyword argument {k!r}")
            i = params.index(k)
            if i < len(args):
                raise CallError(f"{self.name}() got multiple values for argument {k!r}")
            out[i] = v
        for i, v in enumerate(out):
            if v is _NO_DEFAULT:
                if self._defaults[i] is _NO_DEFAULT:
                    raise CallError(f"{self.name}() missing required argument {params[i]!r}")
                out[i] = self._defaults[i]
        return out

    def _bad_arg(self, i, v):
        raise CallError(f"{self.name}() argument {self._f.params[i]!r} must be "
                        f"{self._shown[i]}, got {RT.describe(v)}")

    def _note(self, e: BaseException) -> None:
        if getattr(e, "__ember_traced__", False):
            return
        frames = []
        tb = e.__traceback__
        while tb is not None:
            code = tb.tb_frame.f_code
            if code in self._codes:
                frames.append((code.co_filename, tb.tb_lineno, code.co_name))
            tb = tb.tb_next
        if not frames:
            return
        lines = ["ember script traceback (most recent call last):"]
        for filename, line, name in frames:
            lines.append(f'  File "{filename}", line {line}, in {name}')
            src = self._sources.get(filename)
            if src and 0 < line <= len(src):
                lines.append("    " + src[line - 1].strip())
        try:
            e.add_note("\n".join(lines))
            e.__ember_traced__ = True
        except (AttributeError, TypeError):
            pass

    def __repr__(self):
        return f"<ember entry {self.signature}>"
