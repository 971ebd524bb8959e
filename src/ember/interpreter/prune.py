"""Pruning a Program to what its entry points reach, before it is loaded or saved.

An IR module carries every class its source declared (a scripted module: one per module
type, though freezing leaves the code touching none of them), and lowering keeps every
function, operator and source it lowered. `prune_program` keeps only what some entry
point reaches and renumbers the tables, so an artifact pays for nothing else:

* functions: the entries, the callees of CALL / CLOSURE, the special methods of kept
  classes;
* classes: NEWOBJ's classes, the classes of kept objects, and every class a kept type
  text names (signatures, ISINST / NARROW type constants, field types of kept classes),
  since the runtime checks that each of those names a declared class;
* objects and tensors: the ("object", i) / ("tensor", i) constants of kept functions,
  the references inside kept objects and the members of a kept Enum class (the constant
  objects of a plain class: a member passed in from Python is found among them); operators: KCALL's; sources: those the line
  tables and inlined call sites of kept functions name.

Tables keep their order (so an object still comes after the objects it refers to), and
a program that already uses everything comes back unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ember.mobile import types as RT
from ember.mobile.opcodes import LAYOUT, Op
from ember.mobile.program import Program, Ref

_TABLE_OF_KIND = {"n": "functions", "c": "classes", "f": "operators"}
"""Fixed operand kinds that index a program table."""


@dataclass
class _Live:
    functions: set = field(default_factory=set)
    classes: set = field(default_factory=set)
    objects: set = field(default_factory=set)
    tensors: set = field(default_factory=set)
    operators: set = field(default_factory=set)
    sources: set = field(default_factory=set)


def prune_program(p: Program) -> Program:
    """`p` with only the functions, classes, objects, tensors, operators and sources its
    entry points reach (p itself when nothing is unreachable)."""
    live = _reach(p)
    if all(len(getattr(live, t)) == len(getattr(p, t)) for t in vars(live)):
        return p
    maps = {t: _renumber(getattr(live, t)) for t in vars(live)}
    functions = [_function(p.functions[i], maps) for i in sorted(live.functions)]
    classes = [replace(p.classes[i], methods={k: maps["functions"][fi] for k, fi in
                                              p.classes[i].methods.items()})
               for i in sorted(live.classes)]
    objects = [(maps["classes"][ci], [_value(v, maps) for v in values])
               for ci, values in (p.objects[i] for i in sorted(live.objects))]
    return replace(p, functions=functions, classes=classes, objects=objects,
                   tensors=[p.tensors[i] for i in sorted(live.tensors)],
                   operators=[p.operators[i] for i in sorted(live.operators)],
                   sources=[p.sources[i] for i in sorted(live.sources)],
                   entries={n: maps["functions"][i] for n, i in p.entries.items()})


# ----------------------------------------------------------------------------- reaching


def _reach(p: Program) -> _Live:
    live = _Live()
    by_name: dict = {}
    for i, c in enumerate(p.classes):
        by_name.setdefault(c.name, []).append(i)
    members: dict = {}  # class index -> its Enum members (constant objects of a "class")
    for oi, (ci, _) in enumerate(p.objects):
        if p.classes[ci].kind == "class":
            members.setdefault(ci, []).append(oi)
    work = [("functions", i) for i in p.entries.values()]
    while work:
        table, i = work.pop()
        seen = getattr(live, table)
        if i in seen:
            continue
        seen.add(i)
        if table == "functions":
            work.extend(_function_refs(p.functions[i], by_name, live))
        elif table == "classes":
            c = p.classes[i]
            work.extend(_type_refs(c.field_types, by_name))
            work.extend(("functions", fi) for fi in c.methods.values())
            work.extend(("objects", oi) for oi in members.get(i, ()))
        elif table == "objects":
            ci, values = p.objects[i]
            work.append(("classes", ci))
            work.extend(_value_refs(values))
    return live


def _function_refs(f, by_name, live: _Live):
    """(table, index) of everything function f uses; its sources go straight into live."""
    yield from _type_refs(list(f.param_types) + [f.ret_type], by_name)
    for c in f.consts:
        if type(c) is tuple and c[0] in ("tensor", "object"):
            yield (c[0] + "s", c[1])
        elif type(c) is tuple and c[0] == "type":
            yield from _type_refs([c[1]], by_name)
    for pos, kind in _table_operands(f.code):
        yield (_TABLE_OF_KIND[kind], f.code[pos])
    live.sources.update(src for _, src, _ in f.lines if src >= 0)
    live.sources.update(row[3] for row in f.sites if len(row) > 3 and row[3] >= 0)


def _type_refs(texts, by_name):
    for text in texts:
        for name in RT.class_names(RT.parse(text)):
            for ci in by_name.get(name, ()):
                yield ("classes", ci)


def _value_refs(values):
    for v in values:
        if type(v) is Ref:
            yield (v.kind + "s", v.index)
        elif type(v) in (list, tuple):
            yield from _value_refs(v)
        elif type(v) is dict:
            yield from _value_refs(list(v.keys()) + list(v.values()))


def _table_operands(code):
    """(position, kind) of every fixed operand of `code` that indexes a program table."""
    pc = 0
    while pc < len(code):
        i = pc + 1
        for kind in LAYOUT[Op(code[pc])]:
            if kind[0] == "*":
                i += 1 + code[i] * (2 if kind == "*p" else 1)
                continue
            if kind in _TABLE_OF_KIND:
                yield i, kind
            i += 1
        pc = i


# ----------------------------------------------------------------------------- renumbering


def _renumber(kept: set) -> dict:
    return {old: new for new, old in enumerate(sorted(kept))}


def _function(f, maps):
    code = list(f.code)
    for pos, kind in _table_operands(f.code):
        code[pos] = maps[_TABLE_OF_KIND[kind]][code[pos]]
    consts = [(c[0], maps[c[0] + "s"][c[1]])
              if type(c) is tuple and c[0] in ("tensor", "object") else c for c in f.consts]
    src = maps["sources"]
    lines = [(pc, src.get(s, s), line) for pc, s, line in f.lines]
    sites = [tuple(row[:3]) + (src.get(row[3], row[3]),) if len(row) > 3 else row
             for row in f.sites]
    return replace(f, code=code, consts=consts, lines=lines, sites=sites)


def _value(v, maps):
    if type(v) is Ref:
        return Ref(v.kind, maps[v.kind + "s"][v.index])
    if type(v) is list:
        return [_value(x, maps) for x in v]
    if type(v) is tuple:
        return tuple(_value(x, maps) for x in v)
    if type(v) is dict:
        return {_value(k, maps): _value(x, maps) for k, x in v.items()}
    return v
