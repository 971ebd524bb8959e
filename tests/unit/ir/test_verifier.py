"""The IR verifier rejects broken IR with a message naming the op."""

import pytest

import ember.ir as I
from ember.errors import VerifyError


def verify(text):
    I.verify_module(I.parse_module(text))


GOOD_LOOP = """
func @f(%n: i64) -> i64 {
  %z = const 0 : i64
  %one = const 1 : i64
  %t = const true : bool
  %r = for %z, %n, %one, %z : i64 {
  ^(%i: i64, %acc: i64):
    %x = if %t : i64 {
      continue %acc
    } else {
      yield %i
    }
    yield %x
  }
  return %r
}
"""


def test_good_loop_verifies():
    verify(GOOD_LOOP)


@pytest.mark.parametrize("text, match", [
    ("func @f() -> i64 {\n  %a = const 1.5 : i64\n  return %a\n}", "does not have type"),
    ("func @f() -> i64 {\n  %a = const true : bool\n  return %a\n}", "returns (bool)"),
    ("func @f() -> i64 {\n  %a = const 1 : i64\n}", "not a terminator"),
    ("func @f() -> i64 {\n  %a = const 1 : i64\n  return %a\n  return %a\n}", "must end"),
    ("func @f() -> i64 {\n  %a = const 1 : i64\n  break %a\n}", "not inside a loop"),
    ("func @f() -> i64 {\n  %c = const true : bool\n  %a = const 1 : i64\n"
     "  %r = if %c : i64 {\n    yield %c\n  } else {\n    yield %a\n  }\n  return %r\n}",
     "yields (bool)"),
    ("func @f() -> i64 {\n  %c = const 1 : i64\n  %r = if %c : i64 {\n    yield %c\n"
     "  } else {\n    yield %c\n  }\n  return %r\n}", "condition must be bool"),
    ("func @f() -> i64 {\n  %c = const 1 : i64\n  %r = call %c {callee = @g} : i64\n"
     "  return %r\n}", "unknown function @g"),
    ("func @g(%x: f64) -> i64 {\n  %c = const 1 : i64\n  return %c\n}\n"
     "func @f() -> i64 {\n  %c = const 1 : i64\n  %r = call %c {callee = @g} : i64\n"
     "  return %r\n}", "passes (i64)"),
    ("func @f() -> i64 {\n  %t = tuple.new : tuple<>\n  %x = tuple.get %t {index = 0} : i64\n"
     "  return %x\n}", "in-range"),
])
def test_bad_ir_is_rejected(text, match):
    with pytest.raises(VerifyError) as ei:
        verify(text)
    assert match in str(ei.value)


def test_value_from_sibling_region_does_not_dominate():
    m = I.parse_module(GOOD_LOOP)
    f = m.funcs["f"]
    # Move the use of %i (inside the loop body) to the function body: it no longer dominates.
    loop = f.body.ops[3]
    i_arg = loop.regions[0].block.args[0]
    ret = f.body.ops[-1]
    ret.set_operand(0, i_arg)
    with pytest.raises(VerifyError, match="not defined before"):
        I.verify_module(m)


def test_erase_refuses_used_results():
    m = I.parse_module(GOOD_LOOP)
    first = m.funcs["f"].body.ops[0]
    with pytest.raises(ValueError):
        first.erase()


def test_clone_maps_operands_and_regions():
    m = I.parse_module(GOOD_LOOP)
    f = m.funcs["f"]
    loop = f.body.ops[3]
    copy = loop.clone()
    assert copy.regions[0].block is not loop.regions[0].block
    inner_if = copy.regions[0].block.ops[0]
    assert inner_if.operands[0] is loop.regions[0].block.ops[0].operands[0]  # outer %t kept
    body = copy.regions[0].block
    assert body.ops[-1].operands[0] is inner_if.result
