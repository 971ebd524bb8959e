"""NamedTuple classes made by a call (`collections.namedtuple`, `typing.NamedTuple("P",
[...])`) have no class statement: their fields, types and defaults are read from the class
object; a field without an annotation is a Tensor (TorchScript's rule)."""

from __future__ import annotations

from collections import namedtuple
from typing import List, NamedTuple, Optional

import numpy as np
import pytest

import ember
from ember import errors

Pair = namedtuple("Pair", ["left", "right"])
Pair.__annotations__ = {"left": int, "right": Optional[List[int]]}

Plain = namedtuple("Plain", ["a", "b"])  # no annotations: Tensor fields

Scored = NamedTuple("Scored", [("name", str), ("score", float)])

WithDefault = namedtuple("WithDefault", ["n", "k"], defaults=[3])
WithDefault.__annotations__ = {"n": int, "k": int}

Odd = namedtuple("Odd", ["x"])
Odd.__annotations__ = {"x": set}


def make_pair(n: int) -> Pair:
    if n > 0:
        return Pair(n, [n, n + 1])
    return Pair(left=n, right=None)


def swap(p: Plain) -> Plain:
    return Plain(p.b, p.a * 2.0)


def best(first: Scored, b: float) -> str:
    xs = [first, Scored("b", b), Scored(score=2.0, name="c")]
    top = xs[0]
    for s in xs:
        if s.score > top.score:
            top = s
    name, _ = top
    return name


def with_default(n: int) -> int:
    w = WithDefault(n)
    return w.n * w.k + WithDefault(n, k=1)[1]


def use_odd(n: int) -> int:
    return len(Odd(n))


def test_collections_namedtuple_takes_field_types_from_its_annotations():
    f = ember.script(make_pair)
    assert tuple(f(2)) == (2, [2, 3])
    assert f(2).right == [2, 3]
    assert tuple(f(-1)) == (-1, None)


def test_namedtuple_fields_without_annotations_are_tensors():
    a, b = np.ones(2, np.float32), np.zeros(2, np.float32)
    out = ember.script(swap)((a, b))
    np.testing.assert_array_equal(out[0], b)
    np.testing.assert_array_equal(out[1], a * 2.0)


def test_functional_typing_namedtuple():
    f = ember.script(best)
    assert f(Scored("a", 1.0), 3.0) == "b" and f(("a", 5.0), 3.0) == "a"


def test_namedtuple_defaults_come_from_the_class():
    assert ember.script(with_default)(5) == 16


def test_unsupported_field_annotation_points_at_the_namedtuple_call():
    with pytest.raises(errors.UnsupportedError) as ei:
        ember.script(use_odd)
    e = ei.value
    assert "field 'x' of namedtuple Odd" in e.message
    assert e.line == Odd_line() and e.span.filename == __file__


def Odd_line() -> int:
    with open(__file__) as fh:
        return next(i for i, line in enumerate(fh, 1) if line.startswith("Odd = namedtuple"))
