"""The structured tree the verifier builds from bytecode and the translator walks.

Each structured statement (IF, LOOP, FOR, TRY) becomes one node holding its
nested blocks; straight-line instructions and exits are `Ins` nodes.
"""

from __future__ import annotations

from dataclasses import dataclass

from ember.mobile import opcodes as O
from ember.mobile.opcodes import Op


@dataclass(slots=True)
class Ins:
    """A straight-line instruction or an exit (BREAK, CONTINUE, RETURN, RAISE, ...)."""

    pc: int
    op: Op
    args: list
    """Operands as decoded by opcodes.decode (variadic ones as lists)."""


@dataclass(slots=True)
class If:
    """IF cond: then [ELSE: orelse] END."""

    pc: int
    cond: int
    then: list
    orelse: list | None


@dataclass(slots=True)
class While:
    """LOOP: cond_code TEST test: body END [LOOPELSE: orelse END]."""

    pc: int
    cond_code: list
    test: int
    body: list
    orelse: list | None


@dataclass(slots=True)
class For:
    """FOR iv in range(lo, hi, step): body END [LOOPELSE: orelse END]."""

    pc: int
    iv: int
    lo: int
    hi: int
    step: int
    body: list
    orelse: list | None


@dataclass(slots=True)
class Handler:
    """EXCEPT classes as reg: body (classes empty: any Exception)."""

    pc: int
    reg: int
    classes: list
    body: list


@dataclass(slots=True)
class Try:
    """TRY: body EXCEPT... [TRYELSE: orelse] [FINALLY: final] END."""

    pc: int
    body: list
    handlers: list
    orelse: list | None
    final: list | None


def children(n) -> list:
    """The nested blocks of a structured node, in pc order (Handler bodies included)."""
    if isinstance(n, If):
        return [n.then, n.orelse or []]
    if isinstance(n, While):
        return [n.cond_code, n.body, n.orelse or []]
    if isinstance(n, For):
        return [n.body, n.orelse or []]
    if isinstance(n, Try):
        return [n.body] + [h.body for h in n.handlers] + [n.orelse or [], n.final or []]
    return []


def walk(nodes):
    """Every node of a tree, Handlers included, in pc order."""
    for n in nodes:
        yield n
        if isinstance(n, Try):
            yield from walk(n.body)
            for h in n.handlers:
                yield h
                yield from walk(h.body)
            yield from walk(n.orelse or [])
            yield from walk(n.final or [])
        else:
            for block in children(n):
                yield from walk(block)


def reads_writes(n) -> tuple[list[int], list[int]]:
    """The registers a node itself reads and writes (not those of nested blocks)."""
    if isinstance(n, If):
        return [n.cond], []
    if isinstance(n, While):
        return [n.test], []
    if isinstance(n, For):
        return [n.lo, n.hi, n.step], [n.iv]
    if isinstance(n, Handler):
        return [], [n.reg]
    if not isinstance(n, Ins):
        return [], []
    if n.op is Op.SETF:
        return [n.args[0], n.args[2]], []
    if n.op is Op.FREE:
        return [], [n.args[0]]
    kinds, args = O.LAYOUT[n.op], n.args
    writes = [args[0]] if n.op in O.WRITES_A else []
    start = 1 if writes else 0
    reads = []
    for kind, v in zip(kinds[start:], args[start:]):
        if kind == "r":
            reads.append(v)
        elif kind in ("*r", "*p"):
            reads.extend(v)
    return reads, writes


def block_costs(n) -> list[int]:
    """CPython's static block count added by each of children(n) (compile.c fblocks):
    a loop body 1; a try body 1 (2 with handlers and a finally); a handler 2 (`except ...
    as name`, 3 with a finally); try-else 0 (1 with a finally); finally 1."""
    if isinstance(n, If):
        return [0, 0]
    if isinstance(n, While):
        return [1, 1, 0]
    if isinstance(n, For):
        return [1, 0]
    if isinstance(n, Try):
        fin = 1 if n.final is not None else 0
        body = 1 + (fin if n.handlers else 0)
        return [body] + [2 + fin for _ in n.handlers] + [fin, 1]
    return []
