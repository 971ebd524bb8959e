"""The run-time twin of the IR type syntax: parse, check, show."""

import random

import numpy as np
import pytest

from ember.mobile import types as RT

from .util import rejects


@pytest.mark.parametrize("text, shown", [
    ("i64", "int"), ("f64", "float"), ("none", "None"), ("tensor", "Tensor"),
    ("tensor<f32>", "Tensor[float32]"), ("tensor<?, [3]>", "Tensor[?, (3)]"),
    ("tensor<f32, [?, 784]>", "Tensor[float32, (?, 784)]"),
    ("tensor<u8, [N, 3]>", "Tensor[uint8, (N, 3)]"), ("tuple<>", "Tuple[]"),
    ("dict<str, list<f64>>", "Dict[str, List[float]]"),
    ("optional<tuple<i64, str>>", "Optional[Tuple[int, str]]"),
    ("union<i64, str, none>", "Union[int, str, None]"), ("fn<(i64, str) -> i64>", "Callable"),
    ("fn<() -> none>", "Callable"), ("!Point", "Point"), ("list< i64 >", "List[int]"),
])
def test_parse_and_show(text, shown):
    assert RT.show(RT.parse(text)) == shown


@pytest.mark.parametrize("text", [
    "", "i32", "list", "list<>", "list<i64", "dict<i64>", "union<>", "tuple<i64 str>",
    "tensor<q8>", "tensor<f32, [3 4]>", "tensor<f32, [-1]>", "tensor<f32, [1" + "0" * 30 + "]>",
    "fn<(i64) i64>", "i64 i64", "optional<" * 40 + "i64" + ">" * 40, "x" * 5000, "<>", "!",
])
def test_malformed_types_rejected(text):
    with pytest.raises(RT.TypeSyntaxError):
        RT.parse(text)


def test_random_type_text_never_crashes():
    rng = random.Random(3)
    tokens = ["i64", "f64", "list", "dict", "tuple", "optional", "union", "fn", "tensor", "f32",
              "<", ">", "[", "]", "(", ")", ",", "->", "?", "N", "3", "!P", "none", " "]
    parsed = 0
    for _ in range(4000):
        text = "".join(rng.choice(tokens) for _ in range(rng.randrange(1, 12)))
        try:
            t = RT.parse(text)
        except RT.TypeSyntaxError:
            continue
        parsed += 1
        check = RT.checker(t, {})
        for v in (0, 1.5, "s", None, [1], {"a": 1}, (1,), np.zeros(3, np.float32)):
            check(v)
        RT.show(t)
    assert parsed > 50


def test_checker_rules():
    c = RT.checker(RT.parse("list<optional<i64>>"), {})
    assert c([1, None]) and not c([1, True]) and not c((1,)) and not c([2 ** 63])
    t = RT.checker(RT.parse("tensor<f32, [N, 2]>"), {})
    assert t(np.zeros((5, 2), np.float32)) and not t(np.zeros((5, 3), np.float32))
    assert not t(np.zeros((5, 2), np.float64)) and not t([[0.0, 0.0]])


def test_type_constants_must_name_declared_classes():
    rejects('class P(x: i64) class\nfunction f(a: i64) -> bool\n'
            '  ISINST r1 r0 type:"optional<!Q>"\n  RETURN r1', "names an undeclared class")
    rejects("function f(a: !Q) -> i64\n  RETURN r0", "names class 'Q'")
