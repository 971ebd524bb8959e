"""A text assembler for ember bytecode: reads what `ember.mobile.disassemble` prints.

    .operators int.lt int.sub int.add          ; optional: fixes the operator table order
    class Point(x: i64, y: i64) class          ; kind: class, namedtuple, module, exception

    function fib(n: i64) -> i64
      .entry fib                               ; directives: .regs N (default: highest
      LOADK   r1 2                             ;   register used + 1), .entry NAME,
      KCALL   r2 int.lt (r0, r1)               ;   .default LIT, .const LIT, .source N,
      IF      r2 ->else                        ;   .line N
      RETURN  r0
    else:
      ELSE    ->end
      ...

Operands: rN registers; constants as literals (ints, floats, JSON strings, True, False,
None, tensor:N, type:"text") or kN pool references; operator names; @function; !Class;
plain ints for immediates; jump targets as ->pc or ->label (a label is `name:` alone on
a line). Variadic registers go in parentheses, EXCEPT's class names in brackets.
A leading pc (as printed by the disassembler) is checked, a trailing `; N: ...` comment
sets the source line. No eval: literals are parsed by int(), float() and json.
"""

from __future__ import annotations

import json
import re

from ember.mobile.opcodes import LAYOUT, Op
from ember.mobile.program import ClassInfo, Function, Program

_TOKEN = re.compile(r'\s*(type:"(?:[^"\\]|\\.)*"|"(?:[^"\\]|\\.)*"|;.*|[()\[\],]'
                    r'|[^\s()\[\],;"]+)')
_LINE_NOTE = re.compile(r";\s*(\d+):")
_INT = re.compile(r"[+-]?\d+$")


class AssemblyError(ValueError):
    """Malformed assembler text; the message names the line."""


def assemble(text: str, *, sources=(), tensors=(), producer: str = "assembler") -> Program:
    """The Program described by `text` (not verified: ember.mobile.build verifies it)."""
    return _Assembler(text, list(sources), list(tensors), producer).run()


def tokenize(line: str) -> tuple[list[str], str]:
    """The tokens of one line and its trailing comment ('' if none)."""
    toks, pos = [], 0
    while pos < len(line):
        m = _TOKEN.match(line, pos)
        if m is None or m.end() == pos:
            if line[pos:].strip() == "":
                break
            raise AssemblyError(f"cannot read {line[pos:]!r}")
        tok, pos = m.group(1), m.end()
        if tok.startswith(";"):
            return toks, tok
        toks.append(tok)
    return toks, ""


def split_top(text: str, sep: str = ",") -> list[str]:
    """Split at `sep` outside <>, (), [] (the "->" of fn types is not a bracket)."""
    parts, depth, cur, i = [], 0, "", 0
    while i < len(text):
        ch = text[i]
        if text.startswith("->", i):
            cur, i = cur + "->", i + 2
            continue
        depth += 1 if ch in "<([" else (-1 if ch in ">)]" else 0)
        if ch == sep and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
        i += 1
    if cur.strip():
        parts.append(cur.strip())
    return parts


def parse_header(rest: str) -> tuple[str, list[str], list[str], str]:
    """`name(p: T, ...) -> R` into (name, params, param_types, ret_type)."""
    open_ = rest.index("(")
    name, depth = rest[:open_].strip(), 0
    i = open_
    while i < len(rest):
        if rest.startswith("->", i):
            i += 2
            continue
        depth += 1 if rest[i] in "<([" else (-1 if rest[i] in ">)]" else 0)
        if depth == 0:
            break
        i += 1
    params, ptypes = [], []
    for p in split_top(rest[open_ + 1:i]):
        pname, _, ptype = p.partition(":")
        params.append(pname.strip())
        ptypes.append(ptype.strip())
    ret = rest[i + 1:].strip()
    if not ret.startswith("->"):
        raise AssemblyError(f"expected '-> type' after the parameters of {name}")
    return name, params, ptypes, ret[2:].strip()


class _Assembler:
    def __init__(self, text, sources, tensors, producer):
        self.lines = text.splitlines()
        self.program = Program(functions=[], sources=sources, tensors=tensors,
                               producer=producer)
        self.op_index: dict[str, int] = {}
        self.func_index: dict[str, int] = {}
        self.class_index: dict[str, int] = {}

    def fail(self, lineno: int, msg: str):
        raise AssemblyError(f"line {lineno + 1}: {msg}")

    def run(self) -> Program:
        chunks = self.split()
        for i, (lineno, header, _) in enumerate(chunks):
            name = parse_header(header)[0]
            if name in self.func_index:
                self.fail(lineno, f"function {name!r} is defined twice")
            self.func_index[name] = i
        for lineno, header, body in chunks:
            self.program.functions.append(_FunctionAssembler(self, lineno, header, body).run())
        return self.program

    def split(self):
        """Program directives are handled here; returns (lineno, header, body) per function."""
        chunks = []
        for lineno, raw in enumerate(self.lines):
            toks, _ = tokenize(raw)
            if not toks:
                continue
            if toks[0] == "function":
                chunks.append((lineno, raw.split(";")[0].strip()[len("function"):], []))
            elif raw[:1].isspace() or toks[-1].endswith(":") and len(toks) == 1:
                if not chunks:
                    self.fail(lineno, "instruction outside a function")
                chunks[-1][2].append((lineno, raw))
            else:
                self.program_directive(lineno, raw, toks)
        return chunks

    def program_directive(self, lineno, raw, toks):
        if toks[0] == ".operators":
            for name in toks[1:]:
                self.operator(name)
        elif toks[0] == ".default_entry" and len(toks) == 2:
            self.program.default_entry = toks[1]
        elif toks[0] == "class":
            text = raw.split(";")[0].strip()[len("class"):]
            close = text.rindex(")")
            name, fields, ftypes, _ = parse_header(text[:close + 1] + " -> none")
            kind = text[close + 1:].strip() or "class"
            self.class_index[name] = len(self.program.classes)
            self.program.classes.append(ClassInfo(name, fields, ftypes, kind))
        else:
            self.fail(lineno, f"unknown directive {toks[0]!r}")

    def operator(self, name: str) -> int:
        if name not in self.op_index:
            self.op_index[name] = len(self.program.operators)
            self.program.operators.append(name)
        return self.op_index[name]


class _FunctionAssembler:
    """Two passes over one function: lay out words and labels, then patch jumps."""

    def __init__(self, asm, lineno, header, body):
        self.asm = asm
        self.lineno = lineno
        self.name, self.params, self.ptypes, self.ret = parse_header(header)
        self.body = body
        self.code: list[int] = []
        self.consts: list = []
        self.const_keys: dict = {}
        self.labels: dict[str, int] = {}
        self.fixups: list[tuple[int, str, int]] = []
        self.lines: list[tuple[int, int, int]] = []
        self.source = 0 if asm.program.sources else -1
        self.line = 0
        self.nregs = None
        self.defaults: list = []
        self.max_reg = len(self.params) - 1

    def run(self) -> Function:
        for lineno, raw in self.body:
            toks, comment = tokenize(raw)
            if len(toks) == 1 and toks[0].endswith(":"):
                self.labels[toks[0][:-1]] = len(self.code)
            elif toks[0].startswith("."):
                self.directive(lineno, toks)
            else:
                self.instruction(lineno, toks, comment)
        for pos, label, lineno in self.fixups:
            if label not in self.labels:
                self.asm.fail(lineno, f"unknown label {label!r}")
            self.code[pos] = self.labels[label]
        nregs = self.nregs if self.nregs is not None else self.max_reg + 1
        return Function(name=self.name, params=self.params, param_types=self.ptypes,
                        ret_type=self.ret, nregs=nregs, code=self.code, consts=self.consts,
                        lines=self.lines, defaults=self.defaults)

    def directive(self, lineno, toks):
        d, args = toks[0], toks[1:]
        if d == ".regs" and len(args) == 1:
            self.nregs = int(args[0])
        elif d == ".entry" and len(args) == 1:
            self.asm.program.entries[args[0]] = self.asm.func_index[self.name]
        elif d == ".default" and len(args) == 1:
            self.defaults.append(self.literal(lineno, args[0]))
        elif d == ".const" and len(args) == 1:
            self.const(self.literal(lineno, args[0]), fresh=True)
        elif d == ".source" and len(args) == 1:
            self.source = int(args[0])
        elif d == ".line" and len(args) == 1:
            self.line = int(args[0])
        else:
            self.asm.fail(lineno, f"bad directive {' '.join(toks)!r}")

    def instruction(self, lineno, toks, comment):
        pc = len(self.code)
        if _INT.match(toks[0]):
            if int(toks[0]) != pc:
                self.asm.fail(lineno, f"listed pc {toks[0]} but the instruction is at {pc}")
            toks = toks[1:]
        try:
            op = Op[toks[0]]
        except KeyError:
            self.asm.fail(lineno, f"unknown opcode {toks[0]!r}")
        note = _LINE_NOTE.match(comment)
        if note:
            self.line = int(note.group(1))
        if self.line and (not self.lines or self.lines[-1][1:] != (self.source, self.line)):
            self.lines.append((pc, self.source, self.line))
        reader = _Operands(self, lineno, toks[1:])
        operands = [reader.operand(kind) for kind in LAYOUT[op]]
        reader.done()
        words = [int(op)]
        for kind, v in zip(LAYOUT[op], operands):
            if kind[0] == "*":
                words.append(len(v) // 2 if kind == "*p" else len(v))
                words.extend(v)
            elif isinstance(v, str):  # a label, patched when the function is complete
                self.fixups.append((pc + len(words), v, lineno))
                words.append(0)
            else:
                words.append(v)
        self.code.extend(words)

    def literal(self, lineno, tok):
        try:
            return parse_literal(tok)
        except ValueError as e:
            self.asm.fail(lineno, str(e))

    def const(self, value, fresh=False) -> int:
        key = (type(value).__name__, repr(value))
        if fresh or key not in self.const_keys:
            self.const_keys.setdefault(key, len(self.consts))
            self.consts.append(value)
            return len(self.consts) - 1
        return self.const_keys[key]


def parse_literal(tok: str):
    """A constant from its assembler text (see disasm.literal); ValueError if it is none."""
    if tok.startswith('"'):
        return json.loads(tok)
    if tok.startswith('type:"'):
        return ("type", json.loads(tok[5:]))
    if tok.startswith("tensor:") and _INT.match(tok[7:]):
        return ("tensor", int(tok[7:]))
    from ember.mobile.manifest import REQUIRED
    named = {"None": None, "True": True, "False": False, "required": REQUIRED}
    if tok in named:
        return named[tok]
    if _INT.match(tok):
        return int(tok)
    if tok[-1:] in ("j", "J"):
        try:
            return complex(tok)
        except ValueError:
            raise ValueError(f"{tok!r} is not a constant") from None
    try:
        return float(tok)
    except ValueError:
        raise ValueError(f"{tok!r} is not a constant") from None


class _Operands:
    """Reads one instruction's operand tokens by kind (opcodes.LAYOUT)."""

    def __init__(self, fa: _FunctionAssembler, lineno: int, toks: list[str]):
        self.fa, self.lineno, self.toks, self.i = fa, lineno, toks, 0

    def fail(self, msg):
        self.fa.asm.fail(self.lineno, msg)

    def next(self) -> str:
        if self.i >= len(self.toks):
            self.fail("missing operand")
        self.i += 1
        return self.toks[self.i - 1]

    def done(self):
        if self.i != len(self.toks):
            self.fail(f"unexpected {' '.join(self.toks[self.i:])!r}")

    def operand(self, kind: str):
        if kind[0] == "*":
            return self.group(kind[1])
        return self.scalar(kind, self.next())

    def group(self, kind: str) -> list:
        close = {"(": ")", "[": "]"}.get(self.next())
        if close is None:
            self.fail("expected ( or [")
        items = []
        while self.toks[self.i:self.i + 1] != [close]:
            tok = self.next()
            if tok == ",":
                continue
            items.append(self.exception_name(tok) if kind == "k" else
                         self.scalar("r" if kind == "p" else kind, tok))
        self.i += 1
        return items

    def exception_name(self, tok: str) -> int:
        """EXCEPT's classes: bare names (ValueError), JSON strings or kN references."""
        if tok.isidentifier() and not re.fullmatch(r"k\d+", tok):
            return self.fa.const(tok)
        return self.scalar("k", tok)

    def scalar(self, kind: str, tok: str):
        """One operand word; jumps to labels come back as the label's name."""
        if kind == "r":
            if not (tok.startswith("r") and tok[1:].isdigit()):
                self.fail(f"expected a register, got {tok!r}")
            self.fa.max_reg = max(self.fa.max_reg, int(tok[1:]))
            return int(tok[1:])
        if kind == "k":
            if tok.startswith("k") and tok[1:].isdigit():
                return int(tok[1:])
            return self.fa.const(self.fa.literal(self.lineno, tok))
        if kind == "f":
            return self.fa.asm.operator(tok)
        if kind in ("n", "c"):
            table = self.fa.asm.func_index if kind == "n" else self.fa.asm.class_index
            key = tok[1:] if tok[:1] in "@!" else tok
            if key not in table:
                self.fail(f"unknown {'function' if kind == 'n' else 'class'} {tok!r}")
            return table[key]
        if kind == "j":
            target = tok[2:] if tok.startswith("->") else tok
            return int(target) if _INT.match(target) else target
        if not _INT.match(tok):
            self.fail(f"expected an integer, got {tok!r}")
        return int(tok)
