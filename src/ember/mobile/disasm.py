"""Disassembly: one line per instruction with its operands and source line (like `luac -l`)."""

from __future__ import annotations

from ember.mobile.opcodes import LAYOUT, Op, decode


def disassemble(program) -> str:
    """Every function of a Program, as text."""
    sources = {i: text.splitlines() for i, (_, text) in enumerate(program.sources)}
    out = []
    for i, f in enumerate(program.functions):
        entry = [n for n, j in program.entries.items() if j == i]
        head = f"function {f.name}({', '.join(f'{p}: {t}' for p, t in zip(f.params, f.param_types))})"
        head += f" -> {f.ret_type}   ; {f.nregs} registers, {len(f.consts)} constants"
        if entry:
            head += f", entry {entry[0]!r}"
        out.append(head)
        out.extend(_function_lines(program, f, sources))
        out.append("")
    return "\n".join(out)


def _function_lines(program, f, sources):
    line_of = {pc: (src, line) for pc, src, line in f.lines}
    pc, last = 0, None
    rows = []
    while pc < len(f.code):
        try:
            op, args, nxt = decode(f.code, pc)
        except (ValueError, IndexError):
            rows.append(f"  {pc:5d}  <bad opcode {f.code[pc]}>")
            break
        text = f"  {pc:5d}  {op.name:<9} {_operands(program, f, op, args)}"
        src, line = line_of.get(pc, (-1, 0))
        if line and (src, line) != last:
            code = sources.get(src, [])
            snippet = code[line - 1].strip() if 0 < line <= len(code) else ""
            text = f"{text:<52} ; {line}: {snippet}"
            last = (src, line)
        rows.append(text.rstrip())
        pc = nxt
    return rows


def _operands(program, f, op, args):
    parts = []
    for kind, v in zip(LAYOUT[op], args):
        if kind[0] == "*":
            parts.append("(" + ", ".join(f"r{x}" for x in v) + ")" if kind != "*k" else
                         "[" + ", ".join(repr(f.consts[x]) for x in v) + "]")
        elif kind == "r":
            parts.append(f"r{v}")
        elif kind == "k":
            parts.append(f"k{v}={f.consts[v]!r}" if v < len(f.consts) else f"k{v}")
        elif kind == "f":
            parts.append(program.operators[v] if v < len(program.operators) else f"f{v}")
        elif kind == "n":
            parts.append("@" + program.functions[v].name if v < len(program.functions) else f"fn{v}")
        elif kind == "c":
            parts.append("!" + program.classes[v].name if v < len(program.classes) else f"c{v}")
        elif kind == "j":
            parts.append(f"->{v}")
        else:
            parts.append(str(v))
    return " ".join(parts)


__all__ = ["disassemble", "Op"]
