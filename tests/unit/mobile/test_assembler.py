"""The assembler reads the disassembler's output back, and reports bad text by line."""

import pytest

from ember import mobile
from ember.interpreter.artifact_writer import compact_lines
from ember.interpreter.assembler import AssemblyError, assemble, split_top, tokenize


def test_compiled_program_round_trips(unit):
    program = unit.fib.program
    again = assemble(mobile.disassemble(program), sources=program.sources,
                     producer=program.producer)
    assert again.operators == program.operators and again.entries == program.entries
    for f, g in zip(program.functions, again.functions, strict=True):
        assert (f.name, f.params, f.param_types, f.ret_type, f.nregs) == \
            (g.name, g.params, g.param_types, g.ret_type, g.nregs)
        assert (f.code, f.consts, f.defaults) == (g.code, g.consts, g.defaults)
        assert compact_lines(f.lines) == g.lines
    assert mobile.disassemble(again) == mobile.disassemble(program)
    assert mobile.build(again).fib(15) == 610


def test_complex_constants_round_trip_exactly():
    from ember.interpreter.assembler import parse_literal
    from ember.mobile.disasm import literal
    for z in (1j, complex(-0.0, -0.0), complex(float("nan"), float("inf")), 1e300 - 5e-324j,
              complex(-0.0, 2.5)):
        back = parse_literal(literal(z))
        assert type(back) is complex and repr(back) == repr(z)
        assert str(back.real) == str(z.real) and str(back.imag) == str(z.imag)
    import ember
    cu = ember.CompilationUnit("def f(z: complex) -> complex:\n    return z * (1 - 0j) + -0j\n")
    program = cu.f.program
    again = assemble(mobile.disassemble(program), sources=program.sources)
    assert [repr(c) for c in again.functions[0].consts] == \
        [repr(c) for c in program.functions[0].consts]
    assert mobile.build(again).f(2j) == cu.f(2j)


def test_tokenizer_keeps_strings_whole():
    toks, comment = tokenize('  LOADK r1 "a ; (b), [c]" ; 4: x = 1')
    assert toks == ["LOADK", "r1", '"a ; (b), [c]"'] and comment == "; 4: x = 1"
    assert tokenize('ISINST r1 r0 type:"fn<(i64) -> i64>"')[0][-1] == 'type:"fn<(i64) -> i64>"'


def test_split_top_respects_brackets_and_arrows():
    assert split_top("a: dict<str, i64>, f: fn<(i64, str) -> i64>, t: tuple<>") == \
        ["a: dict<str, i64>", "f: fn<(i64, str) -> i64>", "t: tuple<>"]


@pytest.mark.parametrize("text, match", [
    ("function f() -> i64\n  FROB r0", "line 2: unknown opcode 'FROB'"),
    ("function f() -> i64\n  IF r0 ->nowhere\n  END", "unknown label 'nowhere'"),
    ("function f() -> i64\n  MOVE x1 r0", "expected a register, got 'x1'"),
    ("function f() -> i64\n  5  RETURN r0", "listed pc 5 but the instruction is at 0"),
    ("function f() -> i64\n  CALL r0 @g ()", "unknown function '@g'"),
    ("function f() -> i64\n  RETURN r0 r1", "unexpected 'r1'"),
    ("function f() -> i64\n  LOADK r0 banana", "'banana' is not a constant"),
    ("function f() -> i64\n  TGET r0 r0 x", "expected an integer"),
    ("  RETURN r0", "instruction outside a function"),
    (".frobnicate", "unknown directive"),
    ("function f() -> i64\n  RETURN r0\nfunction f() -> i64\n  RETURN r0", "defined twice"),
    ("function f(a: i64) i64\n  RETURN r0", "expected '-> type'"),
])
def test_errors_name_the_line(text, match):
    with pytest.raises(AssemblyError, match=match):
        assemble(text)
