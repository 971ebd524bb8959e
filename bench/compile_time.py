"""Compile-time benchmark (not a test): `python bench/compile_time.py`.

Prints, best of several runs: parse, type-check + emit and the default passes for a
~100-line function, torch.jit.CompilationUnit of the same function (when torch is
installed), how emission time grows with function size (1 and 4 copies of the body:
linear work gives ~4x), and ember.script of the benchmark models beside torch.jit.script.

`python bench/compile_time.py --fresh [runs]` instead times the first ember.script and the
first torch.jit.script of each model in fresh processes (median of runs, default 3), the
cost a user meets once per process. As in the shared suite F, imports are done before the
timer starts (`import torch`, which imports TorchScript's compiler, and `from ember import
script`, which imports ember's) and timed on their own. Run it with the .pyc files written
(without PYTHONDONTWRITEBYTECODE), as users have them; ember's parse cache (~/.cache/ember)
is then warm after the first process, as it is on a user's machine after the first run.
With `--new-sources`, each ember process starts from a disk cache that holds only the
parser's tables: the first script of a model never scripted on this machine.
"""

import time

SRC = '''
from typing import List, Dict, Optional, Tuple

def work(xs: List[int], names: List[str], scale: float, limit: Optional[int]) -> Tuple[float, str]:
    total = 0
    best: Optional[int] = None
    counts: Dict[str, int] = {}
    out: List[str] = []
    for i in range(len(xs)):
        x = xs[i]
        if x < 0:
            continue
        if best is None or x > best:
            best = x
        total += x * 2 - 1
        if total > 1000:
            total = total % 997
    for name in names:
        key = name.strip().lower()
        if key in counts:
            counts[key] += 1
        else:
            counts[key] = 1
    for k, v in counts.items():
        out.append(f"{k}={v:>3}")
    evens = [x for x in xs if x % 2 == 0]
    odds = [x * x for x in xs if x % 2 == 1]
    s = 0.0
    for e in evens:
        s += e * scale
    for o in odds:
        s -= o / 3
    j = 0
    while j < len(evens) and j < 10:
        s += evens[j]
        j += 1
    if limit is not None:
        if s > limit:
            s = float(limit)
    acc = 1
    for i in range(1, 20):
        acc = (acc * i) % 1000003
    text = ", ".join(out)
    if best is not None:
        text += " best=" + str(best)
    try:
        q = xs[0] // (xs[-1] - xs[0])
    except ZeroDivisionError:
        q = -1
    except IndexError:
        q = -2
    mat = [[0] * 4 for _ in range(4)]
    for r in range(4):
        for c in range(4):
            mat[r][c] = r * c + q
    diag = 0
    for r in range(4):
        diag += mat[r][r]
    parts = text.split(",")
    longest = ""
    for p in parts:
        if len(p) > len(longest):
            longest = p
    flags = [p.startswith(" ") for p in parts]
    n_flags = 0
    for f in flags:
        if f:
            n_flags += 1
    a, b = divmod(acc, 7)
    m = max(a, b)
    n = min(a, b)
    ratio = m / (n + 1)
    label = "big" if ratio > 10 else "small"
    msg = "{}:{:.2f}:{}".format(label, ratio, n_flags)
    assert len(msg) > 0, "empty message"
    fib = [0, 1]
    for i in range(2, 15):
        fib.append(fib[i - 1] + fib[i - 2])
    fsum = sum(fib)
    pairs = {i: fib[i] for i in range(len(fib)) if fib[i] % 2 == 0}
    sq = 0
    for k2 in pairs:
        sq += pairs[k2] * k2
    rev = longest[::-1]
    word_count = len(text.split())
    if word_count > 3 and diag > 2:
        s += 1.5
    elif word_count > 1:
        s -= 0.5
    else:
        s *= 2.0
    res = s + fsum + sq + diag + acc + total
    return res, msg + rev
'''


def best_of(fn, n):
    from ember.frontend import parser
    best = float("inf")
    for _ in range(n):
        parser._CACHE.clear()  # measure parsing too, not the parse cache
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def main():
    import ember.frontend.compiler as C
    from ember.errors import Source
    from ember.frontend import compile_source
    from ember.frontend.parser import parse_module
    from ember.interpreter.pipeline import run_passes
    from ember.ir import verify_module

    n_lines = SRC.strip().count("\n") + 1
    parse = best_of(lambda: parse_module(Source("b.py", SRC)), 20)
    full = best_of(lambda: compile_source(SRC, "b.py"), 20)
    tree = parse_module(Source("b.py", SRC))
    real_parse = C.parse_module
    C.parse_module = lambda source: tree
    try:
        check = best_of(lambda: compile_source(SRC, "b.py"), 20)
    finally:
        C.parse_module = real_parse
    passes = best_of(lambda: run_passes(compile_source(SRC, "b.py")), 10) - full
    m = compile_source(SRC, "b.py")
    verify_module(m)
    print(f"{n_lines}-line function: parse {parse * 1e3:.1f} ms, type-check + emit "
          f"{check * 1e3:.1f} ms, total {full * 1e3:.1f} ms; default passes "
          f"~{passes * 1e3:.1f} ms")
    try:
        import warnings

        import torch
        warnings.filterwarnings("ignore")
        ts_src = SRC.replace("from typing import List, Dict, Optional, Tuple\n", "")
        ts_src = ts_src.replace("    try:\n        q = xs[0] // (xs[-1] - xs[0])\n"
                                "    except ZeroDivisionError:\n        q = -1\n"
                                "    except IndexError:\n        q = -2\n", "    q = 1\n")
        ts_src = ts_src.replace('f"{k}={v:>3}"', 'k + "=" + str(v)')
        ts_src = ts_src.replace('"{}:{:.2f}:{}"', '"{}:{}:{}"')
        ts_src = ts_src.replace("for i in range(len(fib)) if fib[i] % 2 == 0",
                                "for i in range(len(fib))")
        ts_src = ts_src.replace("if x % 2 == 0]", "]").replace("if x % 2 == 1]", "]")
        ts = best_of(lambda: torch.jit.CompilationUnit(ts_src), 5)
        print(f"torch.jit.CompilationUnit of the same function (TorchScript-compatible "
              f"edits): {ts * 1e3:.1f} ms")
    except Exception as e:  # noqa: BLE001
        print("torch:", type(e).__name__, str(e).splitlines()[0][:200])


def _emit_time(n_copies: int) -> float:
    import ember.frontend.compiler as C
    from ember.errors import Source
    from ember.frontend import compile_source
    from ember.frontend.parser import parse_module

    body = SRC.split("def work", 1)[1].split("\n", 1)[1].rsplit("    return", 1)[0]
    src = SRC.split("def work", 1)[0] + "def work" + SRC.split("def work", 1)[1].split(
        "\n", 1)[0] + "\n" + body * n_copies + "    return 1.0, ''\n"
    tree = parse_module(Source("b.py", src))
    real = C.parse_module
    C.parse_module = lambda source: tree
    try:
        return best_of(lambda: compile_source(src, "b.py"), 3)
    finally:
        C.parse_module = real


def growth():
    small, big = _emit_time(1), _emit_time(4)
    print(f"emission, 1 copy of the body: {small * 1e3:.1f} ms; 4 copies: {big * 1e3:.1f} ms "
          f"({big / small:.1f}x)")


def models():
    """ember.script (and freeze) of the suite-B models beside torch.jit.script, ms."""
    import os
    import sys
    import warnings
    here = os.path.dirname(os.path.abspath(__file__))
    shared = os.path.join(here, "..", "..", "shared", "bench")
    if not os.path.isdir(shared):
        print("models: ../shared/bench not found")
        return
    sys.path.insert(0, shared)
    try:
        import torch
        from workloads.models import MODELS, make_model
    except ImportError as e:
        print("models:", e)
        return
    import ember
    warnings.filterwarnings("ignore")
    for name in MODELS:
        m = make_model(name)
        t_ember = best_of(lambda: ember.script(m), 3)
        t_freeze = best_of(lambda: ember.freeze(m), 3)
        t_ts = best_of(lambda: torch.jit.script(m), 3)
        print(f"{name:12s} ember.script {t_ember * 1e3:7.1f} ms   ember.freeze "
              f"{t_freeze * 1e3:7.1f} ms   torch.jit.script {t_ts * 1e3:7.1f} ms")


_FRESH_CHILD = """
import sys, time, warnings
warnings.filterwarnings("ignore")
sys.path[:0] = [sys.argv[3], sys.argv[4]]
t = time.perf_counter()
import torch
torch.set_num_threads(1)
t_torch = time.perf_counter() - t
from workloads.models import make_model
t = time.perf_counter()
from ember import script
t_ember = time.perf_counter() - t
model = make_model(sys.argv[1])
t = time.perf_counter()
if sys.argv[2] == "ember":
    script(model)
else:
    torch.jit.script(model)
print(time.perf_counter() - t, t_ember if sys.argv[2] == "ember" else t_torch)
"""


def _fresh_time(name: str, engine: str, shared: str, runs: int,
                new_sources: bool = False) -> tuple[float, float]:
    """Medians over fresh processes of the first script of model name by engine and of the
    engine's import (`from ember import script`, `import torch`), ms. new_sources: each
    process gets a disk cache holding only the parser's tables, as for a model never
    scripted before on this machine."""
    import os
    import statistics
    import subprocess
    import sys
    import tempfile
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
    times, imports = [], []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as home:
            env = dict(os.environ, XDG_CACHE_HOME=home) if new_sources else None
            if new_sources:
                _copy_parser_tables(os.path.join(home, "ember"))
            out = subprocess.run([sys.executable, "-c", _FRESH_CHILD, name, engine, src,
                                  shared], capture_output=True, text=True, check=True,
                                 env=env).stdout.split()
        times.append(float(out[-2]) * 1e3)
        imports.append(float(out[-1]) * 1e3)
    return statistics.median(times), statistics.median(imports)


def _copy_parser_tables(folder: str) -> None:
    """Copy the parser's table files of the user's disk cache into folder (mode 0700)."""
    import os
    import shutil
    from ember.frontend import diskcache
    os.makedirs(folder, mode=0o700)
    base = diskcache.folder()
    for entry in os.listdir(base) if base else ():
        if entry.startswith(("fast-tables-", "lark-tables-")):
            shutil.copy(os.path.join(base, entry), folder)


def fresh(runs: int = 3, new_sources: bool = False):
    """First ember.script vs first torch.jit.script of the suite-B models, fresh processes."""
    import os
    here = os.path.dirname(os.path.abspath(__file__))
    shared = os.path.abspath(os.path.join(here, "..", "..", "shared", "bench"))
    if not os.path.isdir(shared):
        print("fresh: ../shared/bench not found")
        return
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        print("note: PYTHONDONTWRITEBYTECODE is set, so every process compiles ember anew")
    import sys
    sys.path.insert(0, shared)
    from workloads.models import MODELS
    for name in MODELS:
        t_ember, i_ember = _fresh_time(name, "ember", shared, runs, new_sources)
        t_ts, i_torch = _fresh_time(name, "torch", shared, runs)
        print(f"{name:12s} first ember.script {t_ember:7.1f} ms   first torch.jit.script "
              f"{t_ts:7.1f} ms   ratio {t_ember / t_ts:4.2f}   (imports: from ember import "
              f"script {i_ember:5.1f} ms, import torch {i_torch:6.1f} ms)")


if __name__ == "__main__":
    import sys as _sys
    _sys.path.insert(0, __import__("os").path.join(__import__("os").path.dirname(
        __import__("os").path.abspath(__file__)), "..", "src"))
    if "--fresh" in _sys.argv:
        _args = [a for a in _sys.argv[_sys.argv.index("--fresh") + 1:] if a.isdigit()]
        fresh(int(_args[0]) if _args else 3, "--new-sources" in _sys.argv)
    else:
        main()
        growth()
        models()
