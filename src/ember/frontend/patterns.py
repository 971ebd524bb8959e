"""`match` statements: each case's pattern becomes a test and the captures it binds.

A pattern is parsed as the expression it is written as (`[a, *rest]`, `Point(x=0)`,
`1 | 2`, `{"k": v}`) and read here, directed by the subject's static type, into a
condition (Python expressions joined by `and`) and assignments of the captured names.
The statement then runs as

    $m = subject
    $done = False
    if not $done and <test of case 1>:
        <captures>
        if <guard>:
            $done = True
            <body>
    ...

(each case tried in order until one matches and its guard holds, as in Python; a case
whose test fails binds nothing). Literal, capture, wildcard, value (dotted name), or,
`as`, sequence (lists and tuples, with one `*rest`), mapping (dicts, with `**rest`) and
class patterns (`int(x)`, `Point(x=0, y=y)`, positional sub-patterns through the class's
`__match_args__`, a dataclass's or NamedTuple's fields) are supported.
"""

from __future__ import annotations

from ember.errors import UnsupportedError
from ember.frontend import ast as A
from ember.ir import types as T

_BUILTIN_CLASSES = {"int": (T.I64,), "float": (T.F64,), "str": (T.STR,), "bool": (T.BOOL,),
                    "complex": (T.C128,)}
_CONTAINER_CLASSES = {"list": T.ListType, "dict": T.DictType, "tuple": T.TupleType,
                      "set": T.SetType}


class _Refused(Exception):
    def __init__(self, message, span):
        super().__init__(message)
        self.message, self.span = message, span


def capture_names(case: A.MatchCase) -> list[str]:
    """The names a case binds: its captures, `**rest`, `*rest` and `as` name."""
    out = []
    stack = [case.pattern]
    while stack:
        n = stack.pop()
        if isinstance(n, A.Name):
            if n.id != "_":
                out.append(n.id)
        elif isinstance(n, A.Starred):
            stack.append(n.value)
        elif isinstance(n, (A.List, A.Tuple)):
            stack.extend(n.elts)
        elif isinstance(n, A.Dict):
            stack.extend(v for v in n.values)
        elif isinstance(n, A.Call):
            stack.extend(n.args)
            stack.extend(k.value for k in n.keywords)
        elif isinstance(n, A.BinOp) and n.op == "|":
            stack.extend((n.left, n.right))
    if case.name:
        out.append(case.name)
    return out


def s_Match(em, s: A.Match) -> None:
    em.match_counter = getattr(em, "match_counter", 0) + 1
    k = em.match_counter
    subject, done = f"$match{k}", f"$matched{k}"
    sp = s.span
    em.emit_body([A.Assign(s.subject.span, [A.Name(s.subject.span, subject)], s.subject)])
    var = em.env.get(subject)
    if var is None or not var.defined:
        return
    reader = _Reader(em, k)
    read = []
    for case in s.body:
        try:
            steps, binds = reader.pattern(case.pattern, A.Name(case.pattern.span, subject),
                                          var.type)
        except _Refused as e:
            em.c.report(UnsupportedError(e.message, e.span))
            continue
        if case.name:
            binds.append((case.name, A.Name(case.pattern.span, subject)))
        read.append((case, steps, binds))
    if any(not _simple(case, steps) for case, steps, _ in read):
        em.emit_body([A.Assign(sp, [A.Name(sp, done)], A.Constant(sp, False))])
    em.emit_body(_chain(read, done))


def _simple(case, steps) -> bool:
    """A case tried by one test, with no guard: an else branch can hold the next case."""
    return case.guard is None and not any(isinstance(x, tuple) for x in steps)


def _chain(read, done) -> list:
    """The statements trying the cases in order: simple cases as if/else, the others
    (guards, hidden bindings between tests) setting the `done` flag that later cases
    test."""
    if not read:
        return []
    (case, steps, binds), rest = read[0], read[1:]
    psp = case.pattern.span
    assigns = [A.Assign(psp, [A.Name(psp, n)], v) for n, v in binds]
    if _simple(case, steps):
        body = assigns + list(case.body)
        if not steps:  # irrefutable: later cases cannot run
            return body
        return [A.If(case.span, _all(psp, steps), body, _chain(rest, done))]
    inner = [A.Assign(psp, [A.Name(psp, done)], A.Constant(psp, True))] + list(case.body)
    if case.guard is not None:
        inner = [A.If(case.guard.span, case.guard, inner, [])]
    tried = _nest(psp, steps, assigns + inner)
    later = _chain(rest, done)
    if later:
        later = [A.If(psp, A.UnaryOp(psp, "not", A.Name(psp, done)), later, [])]
    return tried + later


def _nest(sp, steps, body) -> list:
    """body under the tests of steps; a step (name, value) binds a hidden name between
    tests (so that isinstance() on it refines it for the tests after)."""
    i = next((j for j, x in enumerate(steps) if isinstance(x, tuple)), None)
    tests, after = (steps, None) if i is None else (steps[:i], steps[i:])
    if after:
        name, value = after[0]
        body = [A.Assign(sp, [A.Name(sp, name)], value)] + _nest(sp, after[1:], body)
    if not tests:
        return body
    return [A.If(sp, _all(sp, tests), body, [])]


def _all(sp, conds):
    conds = [c for c in conds if not (isinstance(c, A.Constant) and c.value is True)]
    if any(isinstance(c, A.Constant) and c.value is False for c in conds):
        return A.Constant(sp, False)
    if not conds:
        return A.Constant(sp, True)
    if len(conds) == 1:
        return conds[0]
    return A.BoolOp(sp, "and", conds)


def _call(sp, name, *args):
    return A.Call(sp, A.Name(sp, name), list(args), [])


def _cmp(sp, left, op, right):
    return A.Compare(sp, left, [op], [right], [sp])


def _int(sp, v):
    return A.Constant(sp, v) if v >= 0 else A.UnaryOp(sp, "-", A.Constant(sp, -v))


class _Reader:
    """Reads patterns into (conditions, captures) for a subject of a static type."""

    def __init__(self, em, k):
        self.em, self.k, self.n = em, k, 0

    def fresh(self, sp, path):
        """A hidden name bound to path between the tests (a step), so that an isinstance()
        test refines it for the tests after: (the step, the name)."""
        self.n += 1
        name = f"$match{self.k}.{self.n}"
        return (name, path), A.Name(sp, name)

    def pattern(self, p, path, t):
        sp = p.span
        if isinstance(p, A.Name):
            return ([], [] if p.id == "_" else [(p.id, path)])
        if isinstance(p, A.BinOp) and p.op == "|":
            return self.alternatives(p, path, t)
        if _is_literal(p):
            return self.literal(p, path, t)
        if isinstance(p, A.Attribute):
            return ([_cmp(sp, path, "==", p)], [])
        if isinstance(p, (A.List, A.Tuple)):
            return self.sequence(p, path, t)
        if isinstance(p, A.Dict):
            return self.mapping(p, path, t)
        if isinstance(p, A.Call):
            return self.class_pattern(p, path, t)
        raise _Refused("this pattern is not supported in a case (patterns are literals, "
                       "names, dotted names, |, sequences, mappings and class patterns)", sp)

    def alternatives(self, p, path, t):
        alts = []
        stack = [p]
        while stack:
            n = stack.pop()
            if isinstance(n, A.BinOp) and n.op == "|":
                stack.extend((n.right, n.left))
            else:
                alts.append(n)
        tests = []
        for a in alts:
            conds, binds = self.pattern(a, path, t)
            if binds:
                raise _Refused("an alternative of an or-pattern (|) that captures names is "
                               "not supported (bind the whole pattern with `as`)", a.span)
            if any(isinstance(c, tuple) for c in conds):
                raise _Refused("this alternative of an or-pattern (|) is not supported: it "
                               "tests the type of an element of a Union", a.span)
            tests.append(_all(a.span, conds) if conds else A.Constant(a.span, True))
        if any(isinstance(c, A.Constant) and c.value is True for c in tests):
            return ([], [])
        tests = [c for c in tests if not (isinstance(c, A.Constant) and c.value is False)]
        if not tests:
            return ([A.Constant(p.span, False)], [])
        return ([tests[0] if len(tests) == 1 else A.BoolOp(p.span, "or", tests)], [])

    def literal(self, p, path, t):
        sp = p.span
        if isinstance(p, A.Constant) and (p.value is None or isinstance(p.value, bool)):
            ms = T.members(t)
            if p.value is None:
                if T.NONE not in ms:
                    return ([A.Constant(sp, False)], [])
                return ([_cmp(sp, path, "is", p)], [])
            if t == T.BOOL:
                return ([_cmp(sp, path, "==", p)], [])
            if T.BOOL in ms:
                return ([_call(sp, "isinstance", path, A.Name(sp, "bool")),
                         _cmp(sp, path, "==", p)], [])
            return ([A.Constant(sp, False)], [])
        kind = _literal_type(p)
        ms = [m for m in T.members(t) if _comparable(m, kind)]
        if not ms:
            return ([A.Constant(sp, False)], [])
        if len(ms) == len(T.members(t)):
            return ([_cmp(sp, path, "==", p)], [])
        if len(ms) == 1 and ms[0] in (T.I64, T.F64, T.STR, T.C128, T.BOOL):
            name = {T.I64: "int", T.F64: "float", T.STR: "str", T.C128: "complex",
                    T.BOOL: "bool"}[ms[0]]
            return ([_call(sp, "isinstance", path, A.Name(sp, name)),
                     _cmp(sp, path, "==", p)], [])
        raise _Refused(f"a literal pattern on a value of type {T_show(t)} is not supported",
                       sp)

    def sequence(self, p, path, t):
        sp = p.span
        stars = [i for i, e in enumerate(p.elts) if isinstance(e, A.Starred)]
        if len(stars) > 1:
            raise _Refused("multiple starred names in a sequence pattern", p.elts[stars[1]].span)
        n = len(p.elts) - len(stars)
        if isinstance(t, T.TupleType):
            return self.tuple_sequence(p, path, t, stars, n)
        if not isinstance(t, T.ListType):
            if any(isinstance(m, (T.ListType, T.TupleType)) for m in T.members(t)):
                raise _Refused(f"a sequence pattern on a value of type {T_show(t)} is not "
                               "supported (match a List or a Tuple)", sp)
            return ([A.Constant(sp, False)], [])
        op = ">=" if stars else "=="
        conds = [_cmp(sp, _call(sp, "len", path), op, A.Constant(sp, n))]
        binds = []
        cut = stars[0] if stars else len(p.elts)
        after = len(p.elts) - cut - 1 if stars else 0
        for i, e in enumerate(p.elts):
            if i == cut and stars:
                name = e.value
                if not isinstance(name, A.Name):
                    raise _Refused("a starred pattern must be a name", e.span)
                if name.id != "_":
                    upper = None if after == 0 else A.BinOp(
                        sp, _call(sp, "len", path), "-", A.Constant(sp, after))
                    binds.append((name.id, A.Subscript(e.span, path, A.Slice(
                        e.span, A.Constant(e.span, i), upper, None))))
                continue
            index = _int(e.span, i) if i < cut else _int(e.span, i - len(p.elts))
            c, b = self.pattern(e, A.Subscript(e.span, path, index), t.elem)
            conds += c
            binds += b
        return (conds, binds)

    def tuple_sequence(self, p, path, t, stars, n):
        sp = p.span
        size = len(t.elems)
        if (size != n and not stars) or (stars and size < n):
            return ([A.Constant(sp, False)], [])
        conds, binds = [], []
        cut = stars[0] if stars else len(p.elts)
        middle = size - n
        for i, e in enumerate(p.elts):
            if stars and i == cut:
                name = e.value
                if not isinstance(name, A.Name):
                    raise _Refused("a starred pattern must be a name", e.span)
                if name.id != "_":
                    items = [A.Subscript(e.span, path, A.Constant(e.span, j))
                             for j in range(cut, cut + middle)]
                    binds.append((name.id, A.List(e.span, items)))
                continue
            j = i if i < cut else i - 1 + middle
            c, b = self.pattern(e, A.Subscript(e.span, path, A.Constant(e.span, j)),
                                t.elems[j])
            conds += c
            binds += b
        return (conds, binds)

    def mapping(self, p, path, t):
        sp = p.span
        if not isinstance(t, T.DictType):
            if any(isinstance(m, T.DictType) for m in T.members(t)):
                raise _Refused(f"a mapping pattern on a value of type {T_show(t)} is not "
                               "supported (match a Dict)", sp)
            return ([A.Constant(sp, False)], [])
        conds, binds, keys = [], [], []
        for key, value in zip(p.keys, p.values):
            if key is None:
                if not isinstance(value, A.Name):
                    raise _Refused("**rest in a mapping pattern must be a name", value.span)
                kname, vname = "$k", "$v"
                comp = A.DictComp(value.span, A.Name(sp, kname), A.Name(sp, vname), [
                    A.Comprehension(value.span, A.Tuple(sp, [A.Name(sp, kname),
                                                             A.Name(sp, vname)]),
                                    A.Call(sp, A.Attribute(sp, path, "items"), [], []),
                                    [_cmp(sp, A.Name(sp, kname), "not in",
                                          A.List(sp, list(keys)))] if keys else [])])
                binds.append((value.id, comp))
                continue
            if not (_is_literal(key) or isinstance(key, A.Attribute)):
                raise _Refused("a mapping pattern's keys must be literals or dotted names",
                               key.span)
            keys.append(key)
            conds.append(_cmp(key.span, key, "in", path))
            c, b = self.pattern(value, A.Subscript(value.span, path, key), t.value)
            conds += c
            binds += b
        return (conds, binds)

    def class_pattern(self, p, path, t):
        sp = p.span
        cls = p.func
        name = cls.id if isinstance(cls, A.Name) else None
        if name in _BUILTIN_CLASSES or name in _CONTAINER_CLASSES:
            return self.builtin_class(p, path, t, name)
        meta = self.em.expr(cls)
        info = getattr(meta, "info", None)
        if info is None or type(meta).__name__ != "MClass":
            raise _Refused("a class pattern needs a class (a builtin type or a class of the "
                           "program)", cls.span)
        self.em.c.declare_class(info)
        ct = T.ClassType(info.decl.name) if info.decl is not None else None
        if ct is None:
            return ([A.Constant(sp, False)], [])
        ms = T.members(t)
        if ct not in ms and not any(isinstance(m, T.ClassType) for m in ms):
            return ([A.Constant(sp, False)], [])
        conds, binds = [], []
        target = path
        if t != ct:
            if not isinstance(path, A.Name):
                step, target = self.fresh(sp, path)
                conds.append(step)
            conds.append(_call(sp, "isinstance", target, cls))
        fields = dict(info.decl.fields)
        names = _match_args(info) if p.args else []
        if len(p.args) > len(names):
            raise _Refused(f"{info.name}() accepts {len(names)} positional sub-pattern(s) "
                           "(its __match_args__)", p.args[len(names)].span if
                           len(p.args) > len(names) else sp)
        pairs = list(zip(names, p.args)) + [(kw.arg, kw.value) for kw in p.keywords]
        for attr, sub in pairs:
            if attr not in fields:
                raise _Refused(f"class {info.name} has no field '{attr}'", sub.span)
            c, b = self.pattern(sub, A.Attribute(sub.span, target, attr), fields[attr])
            conds += c
            binds += b
        return (conds, binds)

    def builtin_class(self, p, path, t, name):
        sp = p.span
        if p.keywords or len(p.args) > 1:
            raise _Refused(f"{name}() in a pattern takes at most one positional sub-pattern",
                           sp)
        if name in _BUILTIN_CLASSES:
            want = _BUILTIN_CLASSES[name]
            ok = [m for m in T.members(t) if m in want or (name == "int" and m == T.BOOL)]
        else:
            ok = [m for m in T.members(t) if isinstance(m, _CONTAINER_CLASSES[name])]
        if not ok:
            return ([A.Constant(sp, False)], [])
        conds, target, sub_t = [], path, ok[0] if len(ok) == 1 else t
        if len(ok) != len(T.members(t)):
            if not isinstance(path, A.Name):
                step, target = self.fresh(sp, path)
                conds.append(step)
            conds.append(_call(sp, "isinstance", target, A.Name(sp, name)))
        if p.args:
            c, b = self.pattern(p.args[0], target, sub_t)
            return (conds + c, b)
        return (conds, [])


def _match_args(info) -> list[str]:
    """The names positional sub-patterns of a class pattern match: the class body's
    `__match_args__` tuple, else a NamedTuple's or dataclass's fields in order."""
    for st in info.node.body if info.node is not None else []:
        if isinstance(st, (A.Assign, A.AnnAssign)):
            targets = st.targets if isinstance(st, A.Assign) else [st.target]
            if any(isinstance(x, A.Name) and x.id == "__match_args__" for x in targets):
                v = st.value
                if isinstance(v, (A.Tuple, A.List)) and all(
                        isinstance(e, A.Constant) and isinstance(e.value, str) for e in v.elts):
                    return [e.value for e in v.elts]
                raise _Refused("__match_args__ must be a tuple of field names", v.span)
    from ember.frontend.dataclasses_ import dataclass_options
    if info.kind == "namedtuple" or info.decl.kind == "namedtuple" or \
            dataclass_options(info):
        return [n for n, _ in info.decl.fields]
    return []


def _is_literal(p) -> bool:
    if isinstance(p, A.Constant):
        return True
    if isinstance(p, A.UnaryOp) and p.op == "-" and isinstance(p.operand, A.Constant) and \
            isinstance(p.operand.value, (int, float, complex)):
        return True
    return isinstance(p, A.BinOp) and p.op in "+-" and _is_literal(p.left) and \
        isinstance(p.right, A.Constant) and isinstance(p.right.value, complex)


def _literal_type(p):
    while not isinstance(p, A.Constant):
        p = p.operand if isinstance(p, A.UnaryOp) else p.right
    return type(p.value)


def _comparable(m, kind) -> bool:
    if kind is str:
        return m == T.STR
    if kind in (int, float, complex):
        return m in (T.I64, T.F64, T.C128, T.BOOL)
    return False


def T_show(t) -> str:
    from ember.frontend.typing_ import show
    return show(t)
