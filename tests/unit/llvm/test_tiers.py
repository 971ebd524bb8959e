"""Two tiers of native code (llvm/tiers.py): a cache miss runs quick code at once and the
optimized code once the worker has made it; both give the VM's results and errors, and
the cache keeps only the optimized object."""

import json
import os
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import ember
from ember.llvm import cache, pyentry, tiers

SRC = '''
from typing import List
def div(a: int, b: int) -> int:
    return a // b
def total(xs: List[int]) -> int:
    s = 0
    for x in xs:
        s += x * x
    return s
def grow(xs: List[int], n: int) -> List[int]:
    for i in range(n):
        xs.append(i)
    return xs
def spin(n: int) -> int:
    s = 0
    for i in range(n):
        s = (s + i * i) % 1000003
    return s
'''


@pytest.fixture
def held(monkeypatch, tmp_path):
    """Optimized compiles are held here instead of running on the worker."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("EMBER_LLVM_TIER", raising=False)
    jobs = []

    def hold(fn):
        jobs.append(tiers.Job(fn))
        return jobs[-1]
    monkeypatch.setattr(tiers, "submit", hold)
    monkeypatch.setattr(tiers, "QUICK_CALLS", 10**9)  # (no call waits for a held job)
    return jobs


def _native(cu):
    return cu.div._compiled.native


def _outcomes(cu):
    out = []
    for call in (lambda: cu.div(7, 2), lambda: cu.div(-7, 2), lambda: cu.div(1, 0),
                 lambda: cu.div(2**62, -1), lambda: cu.div("x", 1),
                 lambda: cu.total([1, 2, 3]), lambda: cu.grow([5], 3),
                 lambda: cu.spin(1000)):
        try:
            out.append(("ok", repr(call())))
        except Exception as e:  # noqa: BLE001 - the exception is the result
            out.append((type(e).__name__, str(e)))
    return out


def test_quick_code_then_optimized_code_give_the_vms_results(held):
    cu = ember.CompilationUnit(SRC, backend="llvm")
    vm = _outcomes(ember.CompilationUnit(SRC))
    native = _native(cu)
    assert native.tier == "quick" and len(held) == 1
    assert all(getattr(cu, n).backend == "llvm" for n in ("div", "total", "grow", "spin"))
    assert _outcomes(cu) == vm
    held[0].run()
    assert native.tier == "opt"
    assert _outcomes(cu) == vm


def test_a_tier_up_repoints_the_builtin_and_the_boundary(held):
    cu = ember.CompilationUnit(SRC, backend="llvm")
    native = _native(cu)
    shim_before = native._addresses("div")[0]
    ctypes_path = cu.total._fn
    held[0].run()
    shim_after = native._addresses("div")[0]
    assert shim_after != shim_before
    if pyentry.available():
        env = cu.div._fn.__self__
        assert int.from_bytes(env[:8], "little") == shim_after
    boundary = getattr(ctypes_path, "native", ctypes_path)
    assert boundary._shim is not None and cu.total([3, 4]) == 25


def test_the_cache_keeps_only_the_optimized_object(held):
    cu = ember.CompilationUnit(SRC, backend="llvm")
    assert cache.load(_native(cu).key) is None
    held[0].run()
    assert cache.load(_native(cu).key) is not None
    again = ember.CompilationUnit(SRC, backend="llvm")
    assert _native(again).cached and _native(again).tier == "opt"
    assert again.spin(1000) == cu.spin(1000)


def test_a_call_running_during_the_tier_up_finishes_in_the_quick_code(held):
    cu = ember.CompilationUnit(SRC, backend="llvm")
    expect = ember.CompilationUnit(SRC).spin(3_000_000)
    got = []
    t = threading.Thread(target=lambda: got.append(cu.spin(3_000_000)))
    t.start()
    time.sleep(0.005)
    held[0].run()  # (the spinning thread released the GIL: this runs beside it)
    t.join()
    assert got == [expect] and cu.spin(3_000_000) == expect


def test_entries_made_after_the_tier_up_are_optimized(held):
    module = ember.CompilationUnit(SRC, backend="llvm")
    held[0].run()
    native = _native(module)
    fn = native.function("spin", lambda: None, {})
    assert fn(1000) == module.spin(1000) and native._handed == []


@pytest.mark.parametrize("how, tier, submitted", [("opt", "opt", 0), ("quick", "quick", 0)])
def test_ember_llvm_tier_chooses(held, monkeypatch, how, tier, submitted):
    monkeypatch.setenv("EMBER_LLVM_TIER", how)
    cu = ember.CompilationUnit(SRC, backend="llvm")
    assert _native(cu).tier == tier and len(held) == submitted
    assert cu.div(9, 4) == 2


def test_the_worker_installs_and_wait_returns(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("EMBER_LLVM_TIER", raising=False)
    cu = ember.CompilationUnit(SRC.replace("1000003", "1000033"), backend="llvm")
    assert tiers.wait(timeout=120)
    assert tiers.pending() == 0 and _native(cu).tier == "opt"
    assert cu.spin(5000) == ember.CompilationUnit(SRC.replace("1000003", "1000033")).spin(5000)


def _run(code: str, cache_home) -> list:
    env = dict(os.environ, XDG_CACHE_HOME=str(cache_home))
    env.pop("EMBER_LLVM_TIER", None)
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout.split()


def test_a_process_exiting_at_once_leaves_the_optimized_object(tmp_path):
    code = f'''
        import time, ember
        from ember.llvm import tiers
        submit = tiers.submit  # (the optimized compile starts late: the process exits first)
        tiers.submit = lambda job: submit(lambda: (time.sleep(0.5), job()))
        cu = ember.CompilationUnit({SRC!r}, backend="llvm")
        n = cu.div._compiled.native
        print(n.cached, n.tier, cu.spin(100))
    '''
    first = _run(code, tmp_path)
    assert first[:2] == ["False", "quick"]
    assert _run(code, tmp_path) == ["True", "opt", first[2]]
    metas = [json.load(open(tmp_path / "ember" / n)) for n in os.listdir(tmp_path / "ember")
             if n.startswith("llvm-") and n.endswith(".json")]
    assert metas and all(m.get("size", 0) > 0 for m in metas)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here")
def test_a_forked_child_compiles(tmp_path):
    code = f'''
        import os, time, ember
        from ember.llvm import tiers
        submit = tiers.submit  # (the parent's optimized compile is under way at the fork)
        tiers.submit = lambda job: submit(lambda: (time.sleep(0.2), job()))
        cu = ember.CompilationUnit({SRC!r}, backend="llvm")
        pid = os.fork()
        if pid == 0:
            other = ember.CompilationUnit("def h(a: int) -> int:\\n    return a * 3\\n",
                                          backend="llvm")
            ok = other.h(5) == 15 and cu.spin(10) == 285
            grandchild = os.fork()  # (a child forks again: its locks are its own)
            if grandchild == 0:
                third = ember.CompilationUnit("def k(a: int) -> int:\\n    return a - 3\\n",
                                              backend="llvm")
                os._exit(0 if third.k(5) == 2 else 4)
            _, status = os.waitpid(grandchild, 0)
            os._exit(0 if ok and os.waitstatus_to_exitcode(status) == 0 else 3)
        _, status = os.waitpid(pid, 0)
        print(os.waitstatus_to_exitcode(status))
    '''
    assert _run(code, tmp_path) == ["0"]


def test_a_hot_quick_entry_waits_for_the_optimized_code(monkeypatch, tmp_path):
    """Past QUICK_CALLS calls a call waits for the optimized code (gated builtin and
    ctypes path alike), and from then on runs it."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("EMBER_LLVM_TIER", raising=False)
    submit = tiers.submit
    monkeypatch.setattr(tiers, "submit",
                        lambda fn: submit(lambda: (time.sleep(0.3), fn())))
    src = SRC.replace("1000003", "1000037")
    cu = ember.CompilationUnit(src, backend="llvm")
    native = _native(cu)
    if pyentry.available():
        assert int.from_bytes(cu.div._fn.__self__[24:32], "little") == pyentry.GATED
    for _ in range(tiers.QUICK_CALLS):
        assert cu.spin(10) == 285
    assert native.tier == "quick"
    assert cu.total([1, 2]) == 5 and native.tier == "opt"  # (the third call waited)
    if pyentry.available():
        assert int.from_bytes(cu.div._fn.__self__[24:32], "little") == 2
    assert cu.div(9, 2) == 4 and cu.spin(10) == 285


def test_a_waited_for_compile_jumps_the_queue(monkeypatch):
    ran = []
    gate_job = tiers.Job(lambda: ran.append("waited"))
    others = [tiers.Job(lambda i=i: ran.append(i)) for i in range(3)]
    monkeypatch.setattr(tiers, "_QUEUE", tiers.collections.deque(others + [gate_job]))
    tiers._first(gate_job)
    assert list(tiers._QUEUE)[0] is gate_job
    for job in list(tiers._QUEUE):
        job.run()
    assert ran == ["waited", 0, 1, 2]
    tiers._first(gate_job)  # (done: nothing to move)


def test_deep_recursion_limits_compile_recursive_code_optimized(held, monkeypatch):
    rec = "def down(n: int) -> int:\n    return 0 if n == 0 else down(n - 1) + 1\n"
    monkeypatch.setattr(sys, "getrecursionlimit", lambda: tiers.QUICK_DEPTH + 1)
    deep = ember.CompilationUnit(rec, backend="llvm")
    flat = ember.CompilationUnit(SRC, backend="llvm")
    assert deep.down._compiled.native.tier == "opt" and len(held) == 1
    assert _native(flat).tier == "quick" and deep.down(50) == 50


def test_a_module_dropped_before_its_turn_costs_no_compile(held):
    import gc

    cu = ember.CompilationUnit(SRC.replace("1000003", "1000039"), backend="llvm")
    key = _native(cu).key
    del cu
    gc.collect()
    held[0].run()
    assert cache.load(key) is None


def test_quick_calls_do_not_load_the_vm_program(held):
    cu = ember.CompilationUnit(SRC.replace("1000003", "1000081"), backend="llvm")
    compiled = cu.spin._compiled
    assert cu.spin(10) == 285 and cu.div(7, 2) == 3
    assert compiled._loaded is None
    held[0].run()
    assert cu.spin(10) == 285 and compiled._loaded is None


LONG = '''
from typing import List
def spin2(n: int) -> int:
    s = 0
    for i in range(n):
        s = (s + i * i) % 1000003
    return s
def tree(n: int) -> int:
    if n < 2:
        return n
    return tree(n - 1) + tree(n - 2)
def walk(n: int) -> List[int]:
    out: List[int] = [0, 0]
    i = 0
    while i < n:
        out[i % 2] = (out[i % 2] * 3 + i) % 1000003
        i += 1
    return out
'''


@pytest.mark.parametrize("call", [lambda cu: cu.spin2(30_000_000),
                                  lambda cu: cu.tree(36),
                                  lambda cu: cu.walk(40_000_000)])
def test_a_long_quick_call_restarts_on_the_optimized_code(held, monkeypatch, call):
    """A call running in the quick code when the optimized code is installed leaves at
    its next poll (a loop head, a recursive entry) and runs again natively."""
    from ember.llvm import boundary

    reruns = []
    rerun = boundary.NativeFunction._rerun
    monkeypatch.setattr(boundary.NativeFunction, "_rerun",
                        lambda self, ctx, args: (reruns.append(1), rerun(self, ctx, args))[1])
    from ember.llvm import _link, _optimized_text, jit

    cu = ember.CompilationUnit(LONG, backend="llvm")
    native = cu.spin2._compiled.native
    obj = jit.compile_ir(_optimized_text(native.plan, native.prefix), small=True)
    got, started = [], threading.Event()

    def run():
        started.set()
        got.append(call(cu))
    t = threading.Thread(target=run)
    t.start()
    started.wait()
    time.sleep(0.05)  # (inside the native call: it runs ~150 ms in quick code)
    native._install(_link(obj))  # (what the held job does once its compile is done)
    t.join()
    assert reruns  # (the running call left the quick code)
    assert native.tier == "opt" and got == [call(cu)]


def test_the_optimized_code_has_no_polls(held):
    cu = ember.CompilationUnit(LONG, backend="llvm")
    native = cu.spin2._compiled.native
    quick_text = native.plan.llvm_ir
    assert f'@"{native.prefix}tierup" = global i8 0' in quick_text
    from ember.llvm import _optimized_text

    assert f'@"{native.prefix}tierup" = constant i8 0' in _optimized_text(native.plan,
                                                                         native.prefix)


def test_without_a_thread_the_optimized_code_is_compiled_at_once(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("EMBER_LLVM_TIER", raising=False)

    def no_thread(self):
        raise RuntimeError("can't start new thread")
    monkeypatch.setattr(threading.Thread, "start", no_thread)
    cu = ember.CompilationUnit(SRC.replace("1000003", "1000099"), backend="llvm")
    native = _native(cu)
    assert native.tier == "opt" and native._gate is None and tiers.pending() == 0
    if pyentry.available():  # (not gated: the builtin runs the native code itself)
        assert int.from_bytes(cu.div._fn.__self__[24:32], "little") == 2
    assert cu.div(7, 2) == 3 and cu.spin(10) == 285


def test_the_optimized_object_goes_where_the_compile_said(held, monkeypatch, tmp_path):
    """The store is the compile's: a cache turned off (or moved) after the compile and
    before the optimized code is made does not change where it goes."""
    monkeypatch.setenv("EMBER_CACHE", "0")
    cu = ember.CompilationUnit(SRC.replace("1000003", "1000117"), backend="llvm")
    key = _native(cu).key
    monkeypatch.delenv("EMBER_CACHE")
    held[0].run()
    assert cache.load(key) is None  # (compiled with the cache off: nothing stored)
    other = tmp_path / "elsewhere"
    cu2 = ember.CompilationUnit(SRC.replace("1000003", "1000121"), backend="llvm")
    monkeypatch.setenv("XDG_CACHE_HOME", str(other))
    held[1].run()
    assert cache.load(_native(cu2).key) is None  # (not in the folder set afterwards)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache.load(_native(cu2).key) is not None
