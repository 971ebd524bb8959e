"""Disassembly, like `luac -l`: one line per instruction with its pc, opcode, operands and
the source line it came from.

    function fib(n: i64) -> i64
      .regs 4
      .entry fib
      .const 2
          0  LOADK      r1 2                           ; 3: if n < 2:
          3  KCALL      r2 int.lt (r0, r1)
          8  IF         r2 ->12

Constants print as literals (ints, Python float reprs, JSON strings, True, False, None,
tensor:N, type:"text"), registers as rN, operators by name, functions as @name, classes
as !Name, jump targets as ->pc. `ember.interpreter.assembler` reads this text back.
Keep in sync with opcodes.LAYOUT and interpreter/assembler.py.
"""

from __future__ import annotations

import json

from ember.mobile.opcodes import LAYOUT, decode
from ember.mobile.manifest import REQUIRED
from ember.mobile.program import Function, Program


def disassemble(program_or_function) -> str:
    """A Program (header and every function) or one Function, as text."""
    if isinstance(program_or_function, Function):
        return "\n".join(function_lines(Program([program_or_function]), 0))
    p = program_or_function
    out = [f"; ember program: {len(p.functions)} functions, {len(p.operators)} operators, "
           f"producer {json.dumps(p.producer)}"]
    for i, (filename, _) in enumerate(p.sources):
        out.append(f"; source {i}: {filename}")
    for name, arr in p.tensors:
        out.append(f"; tensor {name}: {arr.dtype} {list(arr.shape)}")
    if p.operators:
        out.append(".operators " + " ".join(p.operators))
    if p.default_entry is not None:
        out.append(f".default_entry {p.default_entry}")
    for c in p.classes:
        fields = ", ".join(f"{n}: {t}" for n, t in zip(c.fields, c.field_types))
        out.append(f"class {c.name}({fields}) {c.kind}")
    for i in range(len(p.functions)):
        out.append("")
        out.extend(function_lines(p, i))
    return "\n".join(out) + "\n"


def function_lines(program, index: int) -> list[str]:
    """The listing of function `index` of `program`: header, directives, instructions."""
    f = program.functions[index]
    sig = ", ".join(f"{p}: {t}" for p, t in zip(f.params, f.param_types))
    out = [f"function {f.name}({sig}) -> {f.ret_type}", f"  .regs {f.nregs}"]
    out += [f"  .entry {n}" for n, j in program.entries.items() if j == index]
    out += [f"  .default {literal(d)}" for d in f.defaults]
    srcs = {src for _, src, _ in f.lines}
    if len(srcs) == 1 and -1 not in srcs:
        out.append(f"  .source {srcs.pop()}")
    out += [f"  .const {literal(c)}" for c in f.consts]
    out += _instructions(program, f)
    return out


def _instructions(program, f) -> list[str]:
    sources = [text.splitlines() for _, text in program.sources]
    pc, rows, last = 0, [], (-1, 0)
    while pc < len(f.code):
        try:
            op, args, nxt = decode(f.code, pc)
        except (ValueError, IndexError):
            rows.append(f"  {pc:5d}  <bad opcode {f.code[pc]}>")
            break
        text = f"  {pc:5d}  {op.name:<10} {_operands(program, f, op, args)}".rstrip()
        where = f.location(pc)
        if where[1] and where != last:
            src, line = where
            code = sources[src] if 0 <= src < len(sources) else []
            snippet = code[line - 1].strip() if 0 < line <= len(code) else ""
            text = f"{text:<56} ; {line}: {snippet}".rstrip()
            last = where
        rows.append(text)
        pc = nxt
    return rows


def literal(c) -> str:
    """A constant as assembler text (exact: floats by repr, strings as JSON)."""
    if type(c) is tuple and len(c) == 2 and c[0] == "tensor":
        return f"tensor:{c[1]}"
    if type(c) is tuple and len(c) == 2 and c[0] == "type":
        return "type:" + json.dumps(c[1])
    if type(c) is str:
        return json.dumps(c)
    if c is REQUIRED:
        return "required"
    if type(c) is tuple and c and c[0] == "fused":
        return "fused(" + ", ".join(name.removeprefix("tensor.") for name, _ in c[3]) + ")"
    if type(c) is complex:
        return repr(c).strip("()")  # one token: 1j, -0-0j, nan+infj (exact, as floats)
    return repr(c)  # int, bool, None; float reprs are exact (and nan, inf, -inf)


def _operands(program, f, op, args) -> str:
    parts = []
    for kind, v in zip(LAYOUT[op], args):
        if kind == "*k":
            parts.append("[" + ", ".join(_const(f, x) for x in v) + "]")
        elif kind[0] == "*":
            parts.append("(" + ", ".join(f"r{x}" for x in v) + ")")
        else:
            parts.append(_operand(program, f, kind, v))
    return " ".join(parts)


def _operand(program, f, kind, v) -> str:
    if kind == "r":
        return f"r{v}"
    if kind == "k":
        return _const(f, v)
    if kind == "f":
        return program.operators[v] if 0 <= v < len(program.operators) else f"f{v}"
    if kind == "n":
        ok = 0 <= v < len(program.functions)
        return "@" + program.functions[v].name if ok else f"fn{v}"
    if kind == "c":
        return "!" + program.classes[v].name if 0 <= v < len(program.classes) else f"c{v}"
    if kind == "j":
        return f"->{v}"
    return str(v)


def _const(f, k) -> str:
    return literal(f.consts[k]) if 0 <= k < len(f.consts) else f"k{k}"


__all__ = ["disassemble", "function_lines", "literal"]
