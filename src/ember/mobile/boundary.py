"""The call boundary: loaded modules, typed entry points, script tracebacks.

A LoadedFunction checks every argument against the entry's typed signature
before the translated code runs: a wrong count, an unknown keyword or a value
of the wrong type is a CallError (a TypeError) naming the parameter and both
types, after TorchScript's conversions (types.converter: an int or a bool for a float,
a tuple or range for a List, a list for a Tuple, elements likewise). int parameters
reject bools and values outside int64, tensors must be numpy arrays of the declared
dtype and known dims, containers are checked element by element, and tensor
arguments sharing a symbolic dim (tensor<f32, [N, 784]>) must agree on it.

An exception raised by script code keeps its type and message and gains a
note (BaseException.add_note) with the script traceback: one line per script
frame with file:line and function name, then the source line.
"""

from __future__ import annotations

import itertools

import numpy as np

from ember.errors import ArtifactError, CallError
from ember.mobile import types as RT
from ember.mobile.manifest import REQUIRED

_NO_DEFAULT = object()
_NOTE_FRAMES = 12
"""A traceback note shows this many frames from each end (deep recursion elides the rest)."""


class LoadedModule:
    """A loaded program. Calling it runs the default entry; other entries are attributes."""

    def __init__(self, program, fns, classes):
        self.program = program
        """The verified Program this module runs."""
        self._fns = fns
        codes = {fn.__code__: f for fn, f in zip(fns, program.functions)}
        sources = {name: text.splitlines() for name, text in program.sources}
        self._entries = {
            name: LoadedFunction(name, program.functions[i], fns[i], codes, sources, classes,
                                 program.mapping)
            for name, i in program.entries.items()}
        self._default = self._entries.get(program.default_entry_name())

    def __call__(self, *args, **kwargs):
        if self._default is None:
            raise CallError("this program has no entry point")
        return self._default(*args, **kwargs)

    def entry(self, name: str) -> "LoadedFunction":
        """The entry point called `name` (AttributeError listing the entries if none)."""
        try:
            return self._entries[name]
        except KeyError:
            raise AttributeError(f"no entry point {name!r}; entries: "
                                 f"{', '.join(self._entries)}") from None

    @property
    def entries(self) -> list[str]:
        """Names of the entry points, the default first if the program says so."""
        return list(self._entries)

    @property
    def manifest(self) -> dict:
        """The artifact's manifest; for a program built in memory, a summary in the same
        shape (producer, entries with signatures, default entry, operators)."""
        if self.program.manifest is not None:
            return self.program.manifest
        p = self.program
        return {"producer": p.producer, "default_entry": p.default_entry_name(),
                "entries": {name: _signature_record(p.functions[i], i)
                            for name, i in p.entries.items()},
                "operators": list(p.operators), "metadata": dict(p.metadata)}

    def save(self, path, durable: bool = False) -> None:
        """Write this program, with its tensors as they are now (weights a training step
        updated in place), as an artifact with the same entries (numpy only; atomic;
        durable=True: fsynced). An entry point named `save` is reached with
        `entry("save")`."""
        from ember.mobile.artifact_writer import write_artifact
        write_artifact(self.program, path, self.program.default_entry_name(),
                       durable=durable)

    def __getattr__(self, name):
        entries = self.__dict__.get("_entries", {})
        if name in entries:
            return entries[name]
        raise AttributeError(f"loaded module has no entry point {name!r}")

    def __dir__(self):
        return list(super().__dir__()) + list(self._entries)

    def __repr__(self):
        return f"<ember.mobile.LoadedModule entries={self.entries}>"


def _signature_record(f, index: int) -> dict:
    return {"function": index, "params": list(f.params), "param_types": list(f.param_types),
            "ret_type": f.ret_type}


class LoadedFunction:
    """An entry point: argument binding and checks, the translated function, notes."""

    def __init__(self, name, f, fn, codes, sources, classes, mapping=None):
        self.name = name
        """The entry name, used in messages ("forward() argument 'x' ...")."""
        self._mapping = mapping
        self._params = list(f.params)
        self._fn = fn
        self._codes = codes
        self._sources = sources
        self._source_names = list(sources)
        types = [RT.parse(t) for t in f.param_types]
        self._checks = [RT.checker(t, classes) for t in types]
        self._converters = [(i, c) for i, c in enumerate(RT.converter(t, classes)
                                                         for t in types) if c is not None]
        self._symbols = [(i, axis, sym) for i, t in enumerate(types)
                         for axis, sym in RT.symbolic_dims(t)]
        self._shown = [RT.show(t) for t in types]
        nd = len(f.defaults)
        self._defaults = [_NO_DEFAULT] * (len(self._params) - nd) + \
            [_NO_DEFAULT if d is REQUIRED else d for d in f.defaults]
        self.signature = f"{name}(" + ", ".join(
            f"{p}: {s}" for p, s in zip(self._params, self._shown)) + ") -> " + \
            RT.show(RT.parse(f.ret_type))
        """The entry's signature in Python spelling, e.g. "f(x: List[float]) -> float"."""

    def __call__(self, *args, **kwargs):
        if self._mapping is not None:
            _check_mapping(self._mapping)
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
        if self._symbols:
            self._check_symbols(args)
        try:
            return self._fn(*args)
        except BaseException as e:
            self._note(e)
            raise

    def _bind(self, args, kwargs):
        params = self._params
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
        missing = [params[i] for i, v in enumerate(out)
                   if v is _NO_DEFAULT and self._defaults[i] is _NO_DEFAULT]
        if missing:
            names = ", ".join(repr(m) for m in missing)
            s = "s" if len(missing) > 1 else ""
            raise CallError(f"{self.name}() missing required argument{s} {names}")
        return [self._defaults[i] if v is _NO_DEFAULT else v for i, v in enumerate(out)]

    def _bad_arg(self, i, v):
        raise CallError(f"{self.name}() argument {self._params[i]!r} must be "
                        f"{self._shown[i]}, got {RT.describe(v)}{_hint(self._shown[i], v)}")

    def _check_symbols(self, args):
        bound: dict = {}
        for i, axis, sym in self._symbols:
            if args[i] is None:
                continue
            size = args[i].shape[axis]
            first = bound.setdefault(sym, (size, i, axis))
            if first[0] != size:
                raise CallError(
                    f"{self.name}() argument {self._params[i]!r} has size {size} in dim {axis}, "
                    f"but {sym} is {first[0]} (dim {first[2]} of argument "
                    f"{self._params[first[1]]!r})")

    def _filename(self, src: int, default: str) -> str:
        """The file of source index src (a cross-file inlined frame), else default."""
        names = self._source_names
        return names[src] if 0 <= src < len(names) else default

    def _note(self, e: BaseException) -> None:
        """Add the script traceback note to e (once, however many boundaries it crosses)."""
        if getattr(e, "__ember_traced__", False):
            return
        frames = []
        tb = e.__traceback__
        while tb is not None:
            code = tb.tb_frame.f_code
            f = self._codes.get(code)
            if f is not None:
                frames.extend((self._filename(src, code.co_filename), line, name)
                              for name, line, src in f.frames(_site(tb), tb.tb_lineno))
            tb = tb.tb_next
        if not frames:
            return
        lines = ["ember script traceback (most recent call last):"]
        if len(frames) > 2 * _NOTE_FRAMES:
            skipped = len(frames) - 2 * _NOTE_FRAMES
            frames = frames[:_NOTE_FRAMES] + [None] + frames[-_NOTE_FRAMES:]
        for frame in frames:
            if frame is None:
                lines.append(f"  ... {skipped} more script frames ...")
                continue
            filename, line, name = frame
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


def _check_mapping(mapping) -> None:
    """ArtifactError if the mapped artifact file shrank since load: touching its tensors
    would fault (SIGBUS). Files ember writes are replaced by rename and never shrink; only
    a truncation racing with a running call can still fault (docs/architecture.md)."""
    mm, size = mapping
    try:
        now = mm.size()
    except (OSError, ValueError):
        now = -1
    if now < size:
        raise ArtifactError(f"the artifact file was truncated after it was loaded (now "
                            f"{max(now, 0)} bytes, {size} mapped): its tensors are gone; "
                            f"load it again")


def _hint(shown: str, v) -> str:
    """Why a value of the usual wrong kind does not fit, for the call-boundary message."""
    if type(v).__module__.split(".")[0] == "torch":
        return " (ember tensors are numpy arrays: pass x.numpy())"
    if isinstance(v, np.ndarray) and v.dtype not in RT.TENSOR_DTYPES:
        return (" (ember tensors have dtype bool, uint8, int8, int16, int32, int64, float16, "
                "float32, float64, complex64 or complex128, in native byte order)")
    if hasattr(v, "__dict__") and not isinstance(v, (type, BaseException)) and \
            type(v).__name__ in shown:
        return (" (a Python object of a class of that name passes in only when its "
                "attributes of the script class's field names hold values of the fields' "
                "types)")
    return ""


def _site(tb) -> int:
    """The inlined call site of a traceback entry's instruction: the translator stores it
    as the column of every node of the instruction (translate.py)."""
    if tb.tb_lasti < 0:
        return 0
    pos = next(itertools.islice(tb.tb_frame.f_code.co_positions(), tb.tb_lasti // 2, None),
               None)
    return pos[2] if pos is not None and pos[2] is not None else 0
