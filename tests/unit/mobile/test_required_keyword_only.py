"""A keyword-only parameter without a default after one with a default (`def g(a, b=1,
*, c, d=4)`): its default is REQUIRED in IR text (`= required`), bytecode listings and
artifacts (["r"]), and the entry's boundary asks for it, in process and after load."""

import pytest

import ember
from ember import mobile
from ember.errors import CallError
from ember.interpreter.assembler import parse_literal
from ember.ir.parser import parse_module
from ember.ir.printer import print_module
from ember.mobile.disasm import literal
from ember.mobile.manifest import REQUIRED, decode_const, encode_const

SRC = '''
def g(a: int, b: int = 1, *, c: int, d: int = 4) -> int:
    return a * 1000 + b * 100 + c * 10 + d
'''


def test_the_marker_round_trips_through_every_text():
    assert decode_const(encode_const(REQUIRED), 0) is REQUIRED
    assert parse_literal(literal(REQUIRED)) is REQUIRED
    cu = ember.CompilationUnit(SRC)
    text = print_module(cu.g.module)
    assert "%c: i64 = required" in text
    assert print_module(parse_module(text)) == text


@pytest.mark.parametrize("loaded", [False, True])
def test_the_entry_takes_the_defaults_around_a_required_keyword(loaded, tmp_path):
    fn = ember.CompilationUnit(SRC).g
    if loaded:
        fn.save(tmp_path / "g.ember")
        fn = mobile.load(tmp_path / "g.ember")
    assert fn(1, c=3) == 1134
    assert fn(1, 2, c=3, d=9) == 1239
    with pytest.raises(CallError, match="missing required argument 'c'"):
        fn(1, 2)
