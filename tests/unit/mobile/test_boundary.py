"""The call boundary: typed argument checks, binding, defaults, notes, manifest."""

import threading

import numpy as np
import pytest

from ember import mobile
from ember.errors import CallError
from ember.interpreter.artifact_writer import artifact_bytes
from ember.interpreter.assembler import assemble

from .util import build

SIGNATURES = """
class P(x: i64, y: i64) class

function forward(x: tensor<f32, [?, 784]>) -> i64
  .entry forward
  LOADK  r1 0
  RETURN r1

function scalars(i: i64, f: f64, b: bool, s: str, n: none) -> i64
  .entry scalars
  RETURN r0

function containers(xs: list<list<i64>>, d: dict<str, f64>, t: tuple<i64, str>, \
o: optional<i64>, u: union<i64, str>) -> i64
  .entry containers
  LOADK  r5 0
  RETURN r5

function batch(x: tensor<f32, [N, 3]>, y: tensor<f32, [N]>, \
z: optional<tensor<i64, [M, N]>>) -> i64
  .entry batch
  LOADK  r3 0
  RETURN r3

function obj(p: !P) -> i64
  .entry obj
  GETF   r1 r0 0
  RETURN r1

function scale(x: f64, by: f64, shift: f64) -> f64
  .entry scale
  .default 2.0
  .default 0.5
  KCALL  r3 float.mul (r0, r1)
  KCALL  r3 float.add (r3, r2)
  RETURN r3
"""


@pytest.fixture(scope="module")
def m():
    return build(SIGNATURES)


def test_tensor_arguments(m):
    x = np.zeros((5, 784), dtype=np.float32)
    assert m.forward(x) == 0
    cases = [
        (3, "forward\\(\\) argument 'x' must be Tensor\\[float32, \\(\\?, 784\\)\\], got int"),
        (x.astype(np.float64), "got Tensor\\[float64, \\(5, 784\\)\\]"),
        (np.zeros((5, 783), np.float32), "got Tensor\\[float32, \\(5, 783\\)\\]"),
        (np.zeros(784, np.float32), "got Tensor\\[float32, \\(784,\\)\\]"),
        ([[0.0] * 784], "got List\\[List\\[float\\]\\]"),
    ]
    for value, match in cases:
        with pytest.raises(CallError, match=match):
            m.forward(value)


def test_scalar_arguments(m):
    assert m.scalars(1, 1.0, True, "s", None) == 1
    assert m.scalars(1, 1, True, "s", None) == 1  # an int for a float: converted (TorchScript)
    assert m.scalars(1, True, True, "s", None) == 1  # a bool for a float: converted too
    assert m.scalars(1, 1.0, 1, "s", None) == 1  # an int for a bool: its truth (TorchScript)
    cases = [
        ((True, 1.0, True, "s", None), "argument 'i' must be int, got bool"),
        ((2 ** 63, 1.0, True, "s", None), "argument 'i' must be int, got int \\(outside int64\\)"),
        ((1, 2 ** 70, True, "s", None), "argument 'f' must be float, got int"),
        ((1, np.float64(1.0), True, "s", None), "argument 'f' must be float, got numpy.float64"),
        ((1, 1.0, True, b"s", None), "argument 's' must be str, got bytes"),
        ((1, 1.0, True, "s", 0), "argument 'n' must be None, got int"),
    ]
    for args, match in cases:
        with pytest.raises(CallError, match=match):
            m.scalars(*args)
    assert issubclass(CallError, TypeError)


def test_container_arguments_checked_recursively(m):
    ok = ([[1], []], {"a": 1.0}, (1, "x"), None, "u")
    assert m.containers(*ok) == 0
    # as TorchScript converts them: sequences to lists and tuples, numbers to the element type
    assert m.containers([[1], (2,)], {"a": 1}, [1, "x"], None, "u") == 0
    cases = [
        (0, [["1"]], "'xs' must be List\\[List\\[int\\]\\], got List\\[List\\[str\\]\\]"),
        (0, [{1: 1}], "'xs' must be List\\[List\\[int\\]\\], got List\\[Dict\\[int, int\\]\\]"),
        (1, {"a": "1"}, "'d' must be Dict\\[str, float\\], got Dict\\[str, str\\]"),
        (1, {1: 1.0}, "got Dict\\[int, float\\]"),
        (2, (1, "x", 2), "'t' must be Tuple\\[int, str\\], got Tuple\\[int, str, int\\]"),
        (2, [1, 2], "got Tuple\\[int, int\\]"),
        (3, 1.5, "'o' must be Optional\\[int\\], got float"),
        (4, None, "'u' must be Union\\[int, str\\], got None"),
    ]
    for index, value, match in cases:
        args = list(ok)
        args[index] = value
        with pytest.raises(CallError, match=match):
            m.containers(*args)


def test_symbolic_dims_must_agree(m):
    x, y = np.zeros((4, 3), np.float32), np.zeros(4, np.float32)
    assert m.batch(x, y, None) == 0
    assert m.batch(x, y, np.zeros((7, 4), np.int64)) == 0
    with pytest.raises(CallError, match="argument 'y' has size 5 in dim 0, but N is 4 "
                                        "\\(dim 0 of argument 'x'\\)"):
        m.batch(x, np.zeros(5, np.float32), None)
    with pytest.raises(CallError, match="argument 'z' has size 3 in dim 1, but N is 4"):
        m.batch(x, y, np.zeros((7, 3), np.int64))


def test_object_arguments(m):
    p = m.entry("obj")
    cls = p._fn.__globals__["_cls0"]
    assert p(cls(5, 6)) == 5
    with pytest.raises(CallError, match="argument 'p' must be P, got Tuple\\[int, int\\]"):
        p((5, 6))


def test_messages_name_foreign_values(m):
    class P:
        def __init__(self):
            self.x = 1
    with pytest.raises(CallError, match="must be P, got tests.*P \\(a Python object of a "
                                        "class of that name passes in only when"):
        m.obj(P())


def test_tensors_of_dtypes_ember_lacks_are_rejected():
    m = build("function f(x: tensor) -> tensor\n  .entry f\n  RETURN r0")
    for dtype in (np.float16, np.float32, np.float64, np.int8, np.int16, np.int32, np.int64,
                  np.uint8, np.bool_, np.complex64, np.complex128):
        x = np.zeros(2, dtype)
        assert m(x) is x
    for x in (np.zeros(2, np.complex256), np.zeros(2, np.uint16), np.zeros(2, ">f4"),
              np.zeros(2, object)):
        with pytest.raises(CallError, match="ember tensors have dtype bool, uint8"):
            m(x)


def test_torch_tensors_are_told_to_become_numpy():
    torch = pytest.importorskip("torch")
    m = build("function f(x: tensor) -> tensor\n  .entry f\n  RETURN r0")
    with pytest.raises(CallError, match="must be Tensor, got torch.Tensor \\(ember tensors "
                                        "are numpy arrays: pass x.numpy\\(\\)\\)"):
        m(torch.zeros(2))


def test_keywords_and_defaults(m):
    assert m.scale(1.0) == 2.5
    assert m.scale(1.0, 3.0) == 3.5
    assert m.scale(1.0, shift=1.0) == 3.0
    assert m.scale(by=1.0, x=2.0) == 2.5
    cases = [
        (((), {}), "scale\\(\\) missing required argument 'x'"),
        (((1.0, 2.0, 3.0, 4.0), {}), "takes 3 argument\\(s\\) but 4 were given"),
        (((1.0,), {"x": 2.0}), "got multiple values for argument 'x'"),
        (((1.0,), {"scale": 2.0}), "unexpected keyword argument 'scale'"),
        (((1.0,), {"by": "2"}), "argument 'by' must be float, got str"),
    ]
    for (args, kwargs), match in cases:
        with pytest.raises(CallError, match=match):
            m.scale(*args, **kwargs)


def test_missing_arguments_all_named():
    m = build("function f(a: i64, b: i64) -> i64\n  .entry f\n  RETURN r0")
    with pytest.raises(CallError, match="missing required arguments 'a', 'b'"):
        m()


def test_module_surface(m):
    assert m.entries[0] == "forward"
    with pytest.raises(AttributeError, match="no entry point 'nope'"):
        m.nope
    assert "scale" in dir(m)
    assert m.entry("scale").signature == "scale(x: float, by: float, shift: float) -> float"
    manifest = m.manifest
    assert manifest["entries"]["scale"]["param_types"] == ["f64", "f64", "f64"]
    assert manifest["default_entry"] == "forward"


def test_loaded_manifest_is_the_artifact_manifest():
    m = mobile.loads(artifact_bytes(assemble(SIGNATURES)))
    assert m.manifest["format"] == "ember-artifact" and "checksums" in m.manifest
    assert m.scale(1.0) == 2.5


def test_script_exception_note_lists_frames():
    source = "def outer(a):\n    return inner(a)\n\ndef inner(a):\n    return 10 // a\n"
    m = build("""
function outer(a: i64) -> i64
  .entry outer
  .line 2
  CALL   r1 @inner (r0)
  RETURN r1

function inner(a: i64) -> i64
  .line 5
  LOADK  r1 10
  KCALL  r2 int.floordiv (r1, r0)
  RETURN r2
""", sources=[("calc.py", source)])
    with pytest.raises(ZeroDivisionError) as ei:
        m(0)
    assert ei.value.args == ("integer division or modulo by zero",)
    (note,) = ei.value.__notes__
    assert note.splitlines() == [
        "ember script traceback (most recent call last):",
        '  File "calc.py", line 2, in outer',
        "    return inner(a)",
        '  File "calc.py", line 5, in inner',
        "    return 10 // a",
    ]


_INLINED = """from typing import Dict, List
def h(xs: List[int], i: int) -> int:
    return xs[i]

def g(d: Dict[str, int], k: str) -> int:
    y = h([1, 2], d[k] + 5)
    return y

def f(d: Dict[str, int], k: str) -> int:
    return g(d, k) + 1
"""


@pytest.mark.parametrize("optimize", [True, False])
def test_note_shows_the_frames_of_inlined_calls(optimize, tmp_path):
    import ember
    unit = ember.CompilationUnit(_INLINED, filename="calls.py", optimize=optimize)
    assert ("inlined(\"g\":10, \"h\":6)" in unit.f.graph) == optimize
    unit.f.save(tmp_path / "f.ember")
    want = [
        "ember script traceback (most recent call last):",
        '  File "calls.py", line 10, in f', "    return g(d, k) + 1",
        '  File "calls.py", line 6, in g', "    y = h([1, 2], d[k] + 5)",
        '  File "calls.py", line 3, in h', "    return xs[i]",
    ]
    for fn in (unit.f, mobile.load(tmp_path / "f.ember")):
        with pytest.raises(IndexError) as ei:
            fn({"a": 1}, "a")
        assert ei.value.__notes__[0].splitlines() == want
        with pytest.raises(KeyError) as ei:
            fn({"a": 1}, "b")
        assert ei.value.__notes__[0].splitlines() == want[:5]


def test_note_added_once_and_not_to_boundary_errors():
    m = build("function f(a: i64) -> i64\n  .entry f\n  LOADK r1 0\n"
              "  KCALL r2 int.floordiv (r0, r1)\n  RETURN r2")
    for _ in range(2):
        with pytest.raises(ZeroDivisionError) as ei:
            m(1)
        assert len(ei.value.__notes__) == 1
    with pytest.raises(CallError) as ei:
        m("x")
    assert not getattr(ei.value, "__notes__", None)


THREADED = """
function work(n: i64, seed: i64) -> i64
  .entry work
  LOADK   r2 0
  LOADK   r3 1
  LOADK   r4 1000003
  MOVE    r5 r1
  FOR     r6 r2 r0 r3 ->end
  TRY     ->try_end
  KCALL   r7 int.mul (r5, r6)
  KCALL   r7 int.add (r7, r3)
  KCALL   r5 int.mod (r7, r4)
  KCALL   r8 int.floordiv (r5, r6)
  EXCEPT  r9 [ZeroDivisionError] ->try_end
  KCALL   r5 int.add (r5, r3)
try_end:
  END
end:
  END
  RETURN  r5
"""


def _py_work(n, seed):
    s = seed
    for i in range(n):
        try:
            s = (s * i + 1) % 1000003
            s // i
        except ZeroDivisionError:
            s += 1
    return s


def test_eight_threads_share_one_loaded_function():
    f = build(THREADED).entry("work")
    results, errors = {}, []

    def run(k):
        try:
            results[k] = [f(2000 + k, seed) for seed in range(20)]
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)
    threads = [threading.Thread(target=run, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for k in range(8):
        assert results[k] == [_py_work(2000 + k, seed) for seed in range(20)]


def test_deep_recursion_note_is_elided():
    m = build("function down(a: i64) -> i64\n  .entry down\n  .line 3\n"
              "  CALL r1 @down (r0)\n  RETURN r1", sources=[("r.py", "\n\n  return down(a)\n")])
    with pytest.raises(RecursionError) as ei:
        m(1)
    lines = ei.value.__notes__[0].splitlines()
    assert len(lines) < 60 and any("more script frames" in ln for ln in lines)
    assert lines[1] == '  File "r.py", line 3, in down'
