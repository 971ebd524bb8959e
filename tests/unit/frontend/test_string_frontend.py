"""A CompilationUnit's source resolves, with no import, what TorchScript's string frontend
resolves: typing's constructs, Tensor and torch (and math)."""

import numpy as np
import pytest

import ember
from ember.errors import NameResolutionError

FUNCTIONS = '''
def f(xs: List[int], d: Dict[str, int], t: Tuple[int, str], o: Optional[int],
      u: Union[int, str]) -> int:
    n = len(xs) + len(d) + t[0]
    if o is not None:
        n += o
    return n


def g(x: Tensor) -> torch.Tensor:
    return torch.relu(x) * 2.0
'''

UNIT = FUNCTIONS + '''

class P(NamedTuple):
    x: int
    y: float


def h() -> float:
    p = P(1, 2.0)
    return p.y + math.sqrt(4.0) + math.pi


def k(x: Final[int]) -> List[Tuple[int, int]]:
    out: List[Tuple[int, int]] = []
    out.append((x, x))
    return out
'''


def test_typing_names_tensor_torch_and_math_need_no_import():
    cu = ember.CompilationUnit(UNIT)
    assert cu.f([1, 2], {"a": 1}, (3, "s"), 4, "x") == 10
    assert cu.g(np.array([-1.0, 2.0], np.float32)).tolist() == [0.0, 4.0]
    assert cu.h() == 4.0 + 3.141592653589793
    assert cu.k(3) == [(3, 3)]


def test_import_lines_still_work():
    cu = ember.CompilationUnit("from typing import List\nimport math\nimport torch\n"
                               "def f(x: List[int]) -> float:\n"
                               "    return math.pi + len(x) + torch.ones(1).sum().item()\n")
    assert cu.f([1]) == 2.0 + 3.141592653589793


def test_the_sources_own_names_come_first():
    cu = ember.CompilationUnit("def List(x: int) -> int:\n    return x + 1\n"
                               "math = 2\n"
                               "def f() -> int:\n    return List(2) + math\n")
    assert cu.f() == 5


def test_names_torchscript_does_not_resolve_stay_undefined():
    with pytest.raises(NameResolutionError) as ei:
        ember.CompilationUnit("def f(x: Sequence[int]) -> int:\n    return len(x)\n")
    assert "from typing import Sequence" in str(ei.value) and ei.value.line == 1
    with pytest.raises(NameResolutionError) as ei:
        ember.CompilationUnit("def f(x: int) -> int:\n    return np.abs(x)\n")
    assert ei.value.line == 2


def test_the_conventional_torch_aliases_resolve():
    """F and nn, as a test file's or model's globals hold them for TorchScript's Python
    frontend; a source's own F comes first."""
    cu = ember.CompilationUnit("def f(x: Tensor) -> Tensor:\n"
                               "    return F.relu(x) + nn.functional.relu(x)\n")
    assert cu.f(np.array([-1.0, 2.0], np.float32)).tolist() == [0.0, 4.0]
    cu = ember.CompilationUnit("def F(x: int) -> int:\n    return x + 1\n"
                               "def g(x: int) -> int:\n    return F(x)\n")
    assert cu.g(1) == 2


def test_torchscript_accepts_the_same_source():
    torch = pytest.importorskip("torch")
    torch.jit.CompilationUnit(FUNCTIONS)  # (its string frontend has no classes)


def test_ordered_dict_needs_no_import():
    cu = ember.CompilationUnit("def f() -> Dict[int, int]:\n"
                               "    return OrderedDict([(1, 2), (2, 3), (1, 4)])\n")
    assert cu.f() == {1: 4, 2: 3}


def test_warnings_and_future_need_no_import():
    cu = ember.CompilationUnit('''
def fork(x: Tensor) -> List[Tensor]:
    return [x + 1]

def f(x: Tensor) -> float:
    fut = torch.jit.annotate(Future[List[Tensor]], torch.jit._fork(fork, x))
    if bool(x.sum() < 2):
        warnings.warn("small")
    return float(torch.jit._wait(fut)[0].sum())
''')
    assert cu.f(np.array([0.5], np.float32)) == 1.5  # compiled code issues no warnings


def test_warnings_has_only_warn():
    with pytest.raises(NameResolutionError, match="module 'warnings' has no attribute 'warnx'"):
        ember.CompilationUnit("def f(x: int) -> int:\n    warnings.warnx('a')\n    return x\n")
