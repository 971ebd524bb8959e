"""The `ember` command line.

    ember compile FILE.py:NAME -o OUT.ember   script a function/module and save it
        [--backend llvm]                      (also compile natively, list where each runs)
    ember run OUT.ember [ARG ...]             run an artifact (args: JSON literals or .npy files)
    ember run [--backend llvm] FILE.py:NAME [ARG ...]   script a source and run it
    ember inspect OUT.ember                   manifest, signatures, operators, sizes, disassembly
    ember inspect [--backend vm] FILE.py:NAME each function of the scripted source and where
                                              it runs (llvm, or vm and why; default llvm),
        [--dot G.dot]                         and its tensor ops' native report (+ its graph)
    ember convert MODEL.pt -o OUT.ember       import a TorchScript archive (.pt, .ptl) without
                                              torch and save an artifact
    ember demo                                script, save, load and run the bundled examples
    ember fuzz --seconds N [--seed S]         differential, pass-order, artifact and thread
                                              fuzzers (see docs/fuzzing.md)
    ember cache [--clear]                     where the compiler's disk cache is, its size
    ember quantize FILE.py:NAME|MODEL.pt -o OUT.ember [--calibration BATCHES.npz]
                   [--mode dynamic|static|weight_only] [--report]
                                              an int8 artifact (ember.quantize)
    ember-opt FILE.ir -p PIPELINE             run IR passes (see ember.passes.opt)

`run` and `inspect` of an artifact use only the lite runtime (ember.mobile); of a source
(FILE.py:NAME) they compile it with ember.script first.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="ember", description="ember compiler and lite runtime")
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("compile", help="script FILE.py:NAME and save an artifact")
    c.add_argument("target", help="FILE.py:NAME (a function, a module instance, or a module "
                                  "class constructible without arguments)")
    c.add_argument("-o", "--output", required=True)
    c.add_argument("--backend", choices=BACKENDS, default="vm",
                   help="llvm: also compile natively (the artifact is the VM's either way) "
                        "and list where each function runs")
    r = sub.add_parser("run", help="run an artifact's entry point, or a source's function")
    r.add_argument("artifact", help="OUT.ember, or FILE.py:NAME to script and run")
    r.add_argument("args", nargs="*", help="JSON literals (3, 2.5, \"s\", [1, 2]) or .npy files")
    r.add_argument("--entry", default=None, help="entry point (default: the artifact's)")
    r.add_argument("--backend", choices=BACKENDS, default=None,
                   help="for FILE.py:NAME: where it runs (default vm)")
    v = sub.add_parser("convert", help="import a TorchScript archive (.pt/.ptl) and save an "
                                       "artifact")
    v.add_argument("archive")
    v.add_argument("-o", "--output", required=True)
    i = sub.add_parser("inspect", help="describe an artifact, or where a source's functions run")
    i.add_argument("artifact", help="OUT.ember, or FILE.py:NAME")
    i.add_argument("--backend", choices=BACKENDS, default=None,
                   help="for FILE.py:NAME: the backend to compile for (default llvm)")
    i.add_argument("--dot", metavar="OUT.dot", default=None,
                   help="for FILE.py:NAME: write the native report's graph (Graphviz)")
    sub.add_parser("demo", help="script, save, load and run the bundled examples")
    f = sub.add_parser("fuzz", help="run the differential program fuzzer")
    f.add_argument("--seconds", type=float, default=10.0)
    f.add_argument("--seed", type=int, default=None)
    f.add_argument("--programs", type=int, default=None, help="stop after this many programs")
    f.add_argument("--mode", default="all",
                   choices=("all", "programs", "tensors", "passes", "artifacts", "threads",
                            "torchscript", "grad"))
    f.add_argument("--mutations", type=int, default=None,
                   help="stop the artifact fuzzer after this many mutants")
    f.add_argument("--out", default=None, help="directory for reproducers")
    f.add_argument("--corpus", default=None,
                   help="corpus programs for pass-order fuzzing (tests/corpus/programs)")
    f.add_argument("--llvm", action=argparse.BooleanOptionalAction, default=None,
                   help="compare the LLVM backend too (default: when llvmlite is installed)")
    f.add_argument("--profile", default=None, choices=("full", "native", "mixed"),
                   help="generated programs: every construct (full), the native tier's "
                        "subset (native), or half each (mixed, the default with --llvm)")
    f.add_argument("--start", type=int, default=0,
                   help="number of the first generated program (resume after a crash: "
                        "OUT/programs/inflight.py names the program that was running)")
    q = sub.add_parser("quantize", help="quantize a model to int8 and save an artifact")
    q.add_argument("target", help="FILE.py:NAME (a module) or a TorchScript archive "
                                  "(.pt/.ptl)")
    q.add_argument("-o", "--output", required=True)
    q.add_argument("--calibration", default=None,
                   help=".npz of calibration batches, one array per batch (implies static)")
    q.add_argument("--mode", default=None, choices=("dynamic", "static", "weight_only"))
    q.add_argument("--observer", default="histogram",
                   choices=("histogram", "minmax", "moving_average"))
    scales = q.add_mutually_exclusive_group()
    scales.add_argument("--per-tensor", dest="per_channel", action="store_false", default=None,
                        help="one weight scale per tensor (the default of --mode dynamic)")
    scales.add_argument("--per-channel", dest="per_channel", action="store_true",
                        help="one weight scale per output channel (the default otherwise)")
    q.add_argument("--report", action="store_true",
                   help="list what runs in int8 and what stays float")
    k = sub.add_parser("cache", help="show (or --clear) the compiler's disk cache")
    k.add_argument("--clear", action="store_true", help="delete its entries")
    args = ap.parse_args(argv)
    try:
        return _COMMANDS[args.cmd](args)
    except Exception as e:  # user-facing errors print without a Python traceback
        from ember.errors import EmberError

        if isinstance(e, EmberError):
            print(str(e), file=sys.stderr)
            return 1
        raise


BACKENDS = ("vm", "llvm")


def _compile(args) -> int:
    import ember

    obj = _load_target(args.target)
    fn = ember.script(obj, backend=args.backend)
    fn.save(args.output)
    size = os.path.getsize(args.output)
    print(f"wrote {args.output} ({size:,} bytes, entry {fn.entry})")
    if args.backend == "llvm":
        print(_placement(fn))
    return 0


def _quantize(args) -> int:
    import ember
    from ember.errors import UnsupportedError

    target = args.target
    if target.endswith(".ember"):
        raise UnsupportedError(
            f"{target} is an artifact: it holds bytecode, not the IR ember.quantize rewrites; "
            "quantize the model it was made from (FILE.py:NAME) or its TorchScript archive")
    if target.endswith((".pt", ".ptl")):
        from ember.torchscript.load import load_torchscript
        model = load_torchscript(target)
    else:
        model = _load_target(target)
    mode = args.mode or ("static" if args.calibration else "dynamic")
    calib = _batches(args.calibration) if args.calibration else None
    q = ember.quantize(model, mode, calibration=calib, observer=args.observer,
                       per_channel=args.per_channel, report=args.report)
    q.save(args.output)
    print(f"wrote {args.output} ({os.path.getsize(args.output):,} bytes, mode {mode})")
    return 0


def _batches(path):
    """The arrays of an .npz, in the order they were saved: one batch each."""
    import zipfile

    import numpy as np

    from ember.errors import UnsupportedError
    try:
        with np.load(path, allow_pickle=False) as z:
            batches = [z[name] for name in z.files]
    except (OSError, ValueError, zipfile.BadZipFile) as e:
        raise UnsupportedError(f"cannot read calibration batches from {path}: {e}") from None
    if not batches:
        raise UnsupportedError(f"{path} holds no arrays")
    return batches


def _convert(args) -> int:
    import time

    from ember.errors import CompileError
    from ember.torchscript.load import load_torchscript

    t0 = time.perf_counter()
    try:
        sm = load_torchscript(args.archive)
    except CompileError as e:
        print(_conversion_failure(args.archive, e), file=sys.stderr)
        return 1
    sm.save(args.output)
    inv = sm.inventory
    ops = sorted(sm.program.operators)
    print(f"converted {args.archive} -> {args.output} ({os.path.getsize(args.output):,} "
          f"bytes) in {time.perf_counter() - t0:.2f} s")
    print(f"  methods:    {', '.join(inv.methods)}")
    print(f"  parameters: {inv.parameters:,} values in {inv.tensors} tensors")
    print(f"  operators:  {len(ops)}: {', '.join(ops)}")
    return 0


def _conversion_failure(path, e) -> str:
    """Every unsupported operator or construct, with its place, then the errors."""
    lines = [f"cannot convert {path}: {len(e.diagnostics)} problem(s)"]
    unsupported: dict = {}
    for what, span in getattr(e, "unsupported", []):
        unsupported.setdefault(what, []).append(f"{span.filename}:{span.line}")
    if unsupported:
        lines.append("unsupported:")
        for what, places in unsupported.items():
            lines.append(f"  {what}")
            lines.extend(f"      at {p}" for p in dict.fromkeys(places))
    lines.append("")
    lines.append(str(e))
    return "\n".join(lines)


def _is_source(target: str) -> bool:
    path, sep, name = target.rpartition(":")
    return bool(sep) and path.endswith(".py")


def _placement(fn) -> str:
    """One line per function of a scripted object: its name, where it runs (llvm or vm)
    and, for vm under the llvm backend, the fallback reason with file:line."""
    native = getattr(getattr(fn, "_compiled", None), "native", None)
    module = getattr(fn, "module", None)
    if native is None or module is None or not hasattr(module, "funcs"):
        why = getattr(fn, "fallback_reason", None)  # a module, or the vm backend
        return f"  {getattr(fn, 'entry', '?')}  {getattr(fn, 'backend', 'vm')}" + \
            (f"  {why}" if why else "")
    width = max(len(n) for n in module.funcs)
    rows = []
    for name in module.funcs:
        if native.is_native(name):
            rows.append(f"  {name:<{width}}  llvm")
        else:
            rows.append(f"  {name:<{width}}  vm    "
                        f"{native.reasons.get(name, 'not compiled natively')}")
    return "\n".join(rows)


def _load_target(target: str):
    from ember.errors import UnsupportedError

    path, sep, name = target.rpartition(":")
    if not sep or not path.endswith(".py") or not name:
        raise UnsupportedError(f"expected FILE.py:NAME, got {target!r}")
    if not os.path.exists(path):
        raise UnsupportedError(f"no such file: {path}")
    spec = importlib.util.spec_from_file_location(os.path.splitext(os.path.basename(path))[0],
                                                  path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    if not hasattr(mod, name):
        raise UnsupportedError(f"{path} defines no {name!r}")
    obj = getattr(mod, name)
    if isinstance(obj, type):
        obj = obj()
    return obj


def _run(args) -> int:
    from ember import mobile
    from ember.errors import UnsupportedError

    values = [_parse_arg(a) for a in args.args]
    if _is_source(args.artifact):
        import ember

        if args.entry:
            raise UnsupportedError("--entry is for artifacts; name the function in "
                                   "FILE.py:NAME")
        fn = ember.script(_load_target(args.artifact), backend=args.backend or "vm")
    elif args.backend == "llvm":
        raise UnsupportedError("an artifact runs on the lite VM; to run natively, give the "
                               "source: ember run --backend llvm FILE.py:NAME ARG ...")
    else:
        m = mobile.load(args.artifact)
    try:
        if not _is_source(args.artifact):
            fn = m.entry(args.entry) if args.entry else m
        result = fn(*values)
    except Exception as e:  # noqa: BLE001 - no such entry, a bad argument, the script's error
        print(_failure(e), file=sys.stderr)
        return 1
    print(_show(result))
    return 0


def _failure(e: BaseException) -> str:
    """`Type: message` and its notes (the script traceback), without the CLI's own frames."""
    import traceback

    return "".join(traceback.format_exception_only(type(e), e)).rstrip()


def _parse_arg(text: str):
    if text.endswith(".npy") and os.path.exists(text):
        import numpy as np

        return np.load(text, allow_pickle=False)
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _show(value) -> str:
    import numpy as np

    if isinstance(value, np.ndarray):
        with np.printoptions(threshold=20, edgeitems=3, precision=5):
            return f"array(shape={value.shape}, dtype={value.dtype})\n{value}"
    return repr(value)


def _inspect(args) -> int:
    from ember import mobile
    from ember.errors import UnsupportedError

    if _is_source(args.artifact):
        import ember

        backend = args.backend or "llvm"
        fn = ember.script(_load_target(args.artifact), backend=backend)
        print(f"{args.artifact} (backend {backend}): entry {getattr(fn, 'entry', '?')} "
              f"runs on {fn.backend}")
        print(_placement(fn))
        if backend == "llvm" and hasattr(fn, "native_report"):
            report = fn.native_report()
            print(report)
            if args.dot:
                _write_text(args.dot, report.dot())
                print(f"wrote {args.dot}")
        return 0
    if args.dot:
        raise UnsupportedError("--dot is for FILE.py:NAME under the llvm backend")
    if args.backend:
        raise UnsupportedError("--backend is for FILE.py:NAME; an artifact runs on the VM")
    print(mobile.describe(args.artifact))
    return 0


def _write_text(path: str, text: str) -> None:
    """Write `text` atomically (a temporary file in the same folder renamed over `path`)."""
    import tempfile

    fd, tmp = tempfile.mkstemp(prefix=".ember-", suffix=".tmp",
                               dir=os.path.dirname(os.path.abspath(path)))
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _demo(args) -> int:
    from ember.demo import run_demo

    return run_demo()


def _fuzz(args) -> int:
    from ember.fuzz.cli import run as run_fuzz

    return run_fuzz(seconds=args.seconds, seed=args.seed, programs=args.programs,
                    mode=args.mode, mutations=args.mutations, out=args.out,
                    corpus=args.corpus, llvm=args.llvm, profile=args.profile,
                    start=args.start)


def _cache(args) -> int:
    from ember.frontend import diskcache

    base = diskcache.folder()
    if not base:
        print("no disk cache (EMBER_CACHE=0, or no private folder could be made)")
        return 0
    if args.clear:
        print(f"{base}: deleted {diskcache.clear()} files")
        return 0
    kinds: dict = {}
    for path in diskcache.entries():
        kind = os.path.basename(path).rsplit("-", 1)[0]
        n, size = kinds.get(kind, (0, 0))
        kinds[kind] = (n + 1, size + os.path.getsize(path))
    total = sum(size for _, size in kinds.values())
    print(f"{base}: {sum(n for n, _ in kinds.values())} files, {total:,} bytes")
    for kind, (n, size) in sorted(kinds.items()):
        print(f"  {kind:14s} {n:6d} files {size:12,} bytes")
    return 0


_COMMANDS = {"compile": _compile, "convert": _convert, "run": _run, "inspect": _inspect,
             "demo": _demo, "fuzz": _fuzz, "cache": _cache, "quantize": _quantize}


def opt_main(argv=None) -> int:
    """The `ember-opt` console script (IR in, passes, IR out)."""
    from ember.passes.opt import main as opt

    return opt(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    sys.exit(main())
