"""PyTorch's test_typing.py checkScript cases not ported before (namedtuple classes made
by a call at the top of the source, Optional tuples), as CompilationUnit sources."""

import torch

torch.manual_seed(0)
CASES = [
('''
from collections import namedtuple
_GoogLeNetOutputs = namedtuple("GoogLeNetOutputs", ["logits", "aux_logits2", "aux_logits1"])

def foo(x):
    # type: (_GoogLeNetOutputs) -> _GoogLeNetOutputs
    return x
''', []),
('''
from collections import namedtuple
Point = namedtuple("Point", ["x", "y"])

def foo(a, b):
    p = Point(a, b)
    q = Point(x=b, y=a)
    return p.x + q.y, p[1]
''', [(torch.ones(1), torch.zeros(2))]),
('''
def fn(x=None):
    # type: (Optional[Tuple[int, int]]) -> Tuple[int, int]
    if x is None:
        new_x = (1, 2)
    else:
        new_x = x
    return new_x
''', [((3, 4),), ()]),
('''
def test_if_none_assignment(x):
    # type: (Optional[int]) -> int
    if x is None:
        x = 1
    return x + 1
''', [(1,), (None,)]),
]
CASES += [
('''
from collections import namedtuple
_GoogLeNetOutputs = namedtuple("GoogLeNetOutputs", ["logits", "aux_logits2", "aux_logits1"])

def foo(x):
    # type: (_GoogLeNetOutputs) -> _GoogLeNetOutputs
    return x

def bar(a, b, c):
    out = foo(_GoogLeNetOutputs(logits=a, aux_logits2=b, aux_logits1=c))
    return out.logits, out.aux_logits2 + out[2]
''', [(torch.rand(3), torch.rand(3), torch.rand(3))]),
('''
from typing import NamedTuple
P = NamedTuple("P", [("x", int), ("y", List[float])])

def foo(a: int):
    p = P(a, [1.5])
    return p.x, p.y, p
''', [(3,)]),
('''
import collections
P = collections.namedtuple("P", "x, y")

def foo(a):
    p = P(a, a * 2)
    return p.x + p.y
''', [(torch.ones(2),)]),
]
