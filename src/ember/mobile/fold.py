"""Expression folding on a translated function: registers become CPython stack values.

The translator emits one statement per instruction, `r7 = r5 * r5; r8 = r4 + r7`. Here a
statement `v = e` whose variable the next statement reads once, and that is dead after
that read, moves into the read: `r8 = r4 + r5 * r5`. CPython then keeps the value on
its stack instead of storing and loading a local. The move is exact:

- order: every operation the next statement evaluates before the read is a load of a
  local or global, a constant or a method lookup on a local list or dict (no effects,
  cannot raise, unaffected by `e`), so `e` still runs after everything before it and
  before everything after it; a read inside a conditional part (after `and`/`or`, in an
  `x if c else y` arm) is never a target;
- values: v is dead after the read (liveness below), so nothing else sees it;
- errors: `e` keeps its own line number for tracebacks; nothing is folded inside `try`
  (a handler may read v after the statement raised part way through).

Two shapes follow: `if A: v = Y else: v = False` tested once becomes `A and Y` (and the
`True` form `A or Y`), and `while True: if not X: break; ...` becomes `while X: ...`,
so a loop condition like `i < n and x * x <= 4.0` is one expression again.
"""

from __future__ import annotations

import ast

_BARRIER = object()
"""Marks the start of a conditionally evaluated part in an evaluation order."""


def _loads(node, out=None) -> set:
    """The names node reads (a hand-rolled ast.walk: this runs at every load)."""
    out = set() if out is None else out
    if type(node) is ast.Name:
        if type(node.ctx) is ast.Load:
            out.add(node.id)
        return out
    for field in node._fields:
        value = getattr(node, field, None)
        if type(value) is list:
            for x in value:
                if isinstance(x, ast.AST):
                    _loads(x, out)
        elif isinstance(value, ast.AST):
            _loads(value, out)
    return out


class _Liveness:
    """The variables live once each statement's head (HEAD below: the part evaluated
    first) has run: `after[id(stmt)]`. For a simple statement that is the live-out; for an
    `if` or `for`, the live-in of what comes next inside it. The usual backward analysis
    over structured code; loops iterate to a fixed point. A `try` is opaque: everything
    read inside it is live throughout, and nothing inside is folded."""

    def __init__(self):
        self.after: dict[int, set] = {}
        self._loads: dict[int, set] = {}

    def loads(self, node) -> set:
        r = self._loads.get(id(node))
        if r is None:
            r = self._loads[id(node)] = _loads(node)
        return r

    def block(self, stmts, live, loop) -> set:
        """Live-in of stmts given live-out `live`; loop = (live after the loop, live at its
        head) for break and continue."""
        for s in reversed(stmts):
            live = self.stmt(s, live, loop)
        return live

    def stmt(self, s, live, loop) -> set:
        after, live_in = self.transfer(s, live, loop)
        self.after[id(s)] = after
        return live_in

    def transfer(self, s, live, loop):
        """(live after s's head, live-in of s)."""
        if isinstance(s, ast.Assign):
            return live, (live - {t.id for t in s.targets if isinstance(t, ast.Name)}) | \
                self.loads(s)
        if isinstance(s, (ast.Expr, ast.Pass)):
            return live, live | self.loads(s)
        if isinstance(s, (ast.Return, ast.Raise)):
            return set(), self.loads(s)
        if isinstance(s, (ast.Break, ast.Continue)):
            return set(), set(loop[0] if isinstance(s, ast.Break) else loop[1])
        if isinstance(s, ast.If):
            inner = self.block(s.body, live, loop) | self.block(s.orelse, live, loop)
            return inner, self.loads(s.test) | inner
        if isinstance(s, (ast.For, ast.While)):
            head = self.loop(s, live, loop)
            return head, head | (self.loads(s.iter) if isinstance(s, ast.For) else set())
        return live, live | self.loads(s) | (loop[0] | loop[1] if loop else set())

    def loop(self, s, live, outer) -> set:
        """The live set at the loop's head (before each test or next item)."""
        exit_live = self.block(s.orelse, live, outer)
        each = self.loads(s.test) if isinstance(s, ast.While) else set()
        bound = {s.target.id} if isinstance(s, ast.For) else set()
        head = exit_live | each
        while True:
            body_in = self.block(s.body, head, (live, head))
            new = exit_live | each | (body_in - bound)
            if new == head:
                return head
            head = new


def _order(node, parent, field, index, out) -> None:
    """Append (node, parent, field, index) in CPython's evaluation order (operands before
    their operation); a conditional part is a _BARRIER and is not walked."""
    children = []
    if isinstance(node, ast.BoolOp):
        children, cut = [("values", 0)], True
    elif isinstance(node, ast.IfExp):
        children, cut = [("test", None)], True
    elif isinstance(node, ast.Compare):
        children, cut = [("left", None), ("comparators", 0)], len(node.comparators) > 1
    else:
        cut = False
        for name, value in ast.iter_fields(node):
            if isinstance(value, ast.expr):
                children.append((name, None))
            elif isinstance(value, list):
                children += [(name, i) for i, x in enumerate(value) if isinstance(x, ast.expr)]
        if isinstance(node, ast.Dict):
            children = [c for pair in zip(children[:len(node.keys)], children[len(node.keys):])
                        for c in pair]
    for name, i in children:
        child = getattr(node, name) if i is None else getattr(node, name)[i]
        _order(child, node, name, i, out)
    out.append((node, parent, field, index))
    if cut:
        out.append((_BARRIER, None, None, None))


def _trivial(node, parent, field) -> bool:
    """Evaluating node has no effect, cannot raise, and gives the same value before or
    after any other expression: a local or generated global, a constant, or the lookup of
    a builtin container's method (`xs.append`). Not a field read `obj.f0`: a call may set
    the field."""
    return isinstance(node, (ast.Name, ast.Constant)) or \
        isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
        isinstance(parent, ast.Call) and field == "func"


_HEAD = {ast.Assign: "value", ast.Expr: "value", ast.Return: "value", ast.If: "test",
         ast.For: "iter", ast.Raise: "exc"}
"""The part of a statement that CPython evaluates first."""


def _slot(s, v):
    """(parent, field, index) of the read of v in the head of s, if s itself (its head, and
    an assignment's targets) reads v once and only trivial operations come before that
    read; else None. Reads in nested statements are the liveness's business."""
    head = _HEAD.get(type(s))
    if head is None or getattr(s, head) is None:
        return None
    own = [getattr(s, head)] + (s.targets if isinstance(s, ast.Assign) else [])
    if sum(_count(e, v) for e in own) != 1:
        return None
    order: list = []
    _order(own[0], s, head, None, order)
    reads = [i for i, (n, _, _, _) in enumerate(order) if isinstance(n, ast.Name) and n.id == v]
    if not reads or any(n is _BARRIER or not _trivial(n, p, f) for n, p, f, _ in
                        order[:reads[0]]):
        return None
    return order[reads[0]][1:]


def _count(node, v) -> int:
    """How many times node reads the name v (a hand-rolled ast.walk, as _loads)."""
    if type(node) is ast.Name:
        return node.id == v and type(node.ctx) is ast.Load
    n = 0
    for field in node._fields:
        value = getattr(node, field, None)
        if type(value) is list:
            for x in value:
                if isinstance(x, ast.AST):
                    n += _count(x, v)
        elif isinstance(value, ast.AST):
            n += _count(value, v)
    return n


def _warns(expr, parent, field) -> bool:
    """Would CPython's compiler warn about literal expr there (`'-' is None`, `3[i]`)?"""
    if not isinstance(expr, ast.Constant) or any(expr.value is c for c in (None, True, False)):
        return False
    return isinstance(parent, ast.Compare) and \
        any(isinstance(op, (ast.Is, ast.IsNot)) for op in parent.ops) or \
        field in ("func", "value") and isinstance(parent, (ast.Call, ast.Subscript,
                                                           ast.Attribute))


def _put(slot, expr) -> None:
    parent, field, index = slot
    if index is None:
        setattr(parent, field, expr)
    else:
        getattr(parent, field)[index] = expr


def _stamp(expr, stmt):
    """Give expr's nodes the line and column of the statement it comes from where they have
    none: tracebacks name its line, and the column is its inlined call site (translate.py)."""
    line, col = getattr(stmt, "lineno", None), getattr(stmt, "col_offset", None)
    if line is None:  # a generated move with no line: it takes its new statement's
        return expr
    _stamp_nodes(expr, line, col)
    return expr


def _stamp_nodes(node, line, col) -> None:
    if node._attributes and getattr(node, "lineno", None) is None:
        node.lineno = line
        if col is not None:
            node.col_offset = col
    for field in node._fields:
        value = getattr(node, field, None)
        if type(value) is list:
            for x in value:
                if isinstance(x, ast.AST):
                    _stamp_nodes(x, line, col)
        elif isinstance(value, ast.AST):
            _stamp_nodes(value, line, col)


def _assigned(stmts, value: bool):
    """`v = Y` as the only statement of stmts -> (v, Y); with value given, Y must be that
    constant."""
    if len(stmts) != 1 or not isinstance(stmts[0], ast.Assign):
        return None
    s = stmts[0]
    if len(s.targets) != 1 or not isinstance(s.targets[0], ast.Name):
        return None
    if value is not None and not (isinstance(s.value, ast.Constant) and s.value.value is value
                                  and type(s.value.value) is bool):
        return None
    return s.targets[0].id, _stamp(s.value, s)


_MAX_DEPTH = 100
"""Folds nest at most this deep: a chain of thousands of single-use values would
otherwise nest expressions past the recursion limits of this pass and of CPython's
compiler (a straight-line chain of ~1500 `str.lower` calls failed to translate)."""


class _Folder:
    def __init__(self, after):
        self.after = after
        self.depth: dict[int, int] = {}
        """id(statement) -> how deep folds nest in it (absent: 0)."""

    def fold(self, p, s) -> bool:
        """Move p into s if that is exact and keeps nesting bounded; True if it did."""
        d = self.depth.pop(id(p), 0)  # p is gone either way once folded
        if d >= _MAX_DEPTH or not self.fold_once(p, s):
            if d:
                self.depth[id(p)] = d
            return False
        self.depth[id(s)] = max(self.depth.get(id(s), 0), d + 1)
        return True

    def block(self, stmts) -> list:
        out = []
        for s in stmts:
            s = self.nested(s)
            while out and self.fold(out[-1], s):
                out.pop()
            out.append(s)
        return out

    def nested(self, s):
        if isinstance(s, (ast.If, ast.For, ast.While)):
            s.body = self.block(s.body)
            s.orelse = self.block(s.orelse)
        if isinstance(s, ast.While) and isinstance(s.test, ast.Constant) and \
                s.test.value is True and not s.orelse and _is_exit_test(s.body[0]):
            s.test = s.body[0].test.operand
            s.body = s.body[1:] or [ast.Pass(lineno=s.lineno)]
        return s

    def fold_once(self, p, s) -> bool:
        """Move p into s if that is exact; True if it did."""
        if isinstance(p, ast.If):
            return self.fold_condition(p, s)
        if not (isinstance(p, ast.Assign) and len(p.targets) == 1 and
                isinstance(p.targets[0], ast.Name)):
            return False
        v = p.targets[0].id
        slot = _slot(s, v) if self.dead_after(s, v) else None
        if slot is None or _warns(p.value, slot[0], slot[1]):
            return False
        _put(slot, _stamp(p.value, p))
        return True

    def dead_after(self, s, v) -> bool:
        """Is the value v holds before s dead once s has read it?"""
        return v not in self.after[id(s)] or isinstance(s, ast.Assign) and \
            any(isinstance(t, ast.Name) and t.id == v for t in s.targets)

    def fold_condition(self, p, s) -> bool:
        """`if A: v = Y else: v = False` (or `v = True` / `v = Y`) and then `if [not] v:`
        -> `if [not] (A and Y)` (`A or Y`): the same tests in the same order."""
        if not isinstance(s, ast.If) or p.orelse == [] or id(s) not in self.after:
            return False
        test = s.test.operand if isinstance(s.test, ast.UnaryOp) and \
            isinstance(s.test.op, ast.Not) else s.test
        if not isinstance(test, ast.Name) or test.id in self.after[id(s)]:
            return False
        for op, first, second in ((ast.And, p.body, p.orelse), (ast.Or, p.orelse, p.body)):
            y, k = _assigned(first, None), _assigned(second, op is ast.Or)
            if y and k and y[0] == k[0] == test.id:
                cond = ast.BoolOp(op=op(), values=[_stamp(p.test, p), y[1]])
                _put((s.test, "operand", None) if test is not s.test else (s, "test", None),
                     cond)
                return True
        return False


def _is_exit_test(s) -> bool:
    """`if not X: break`."""
    return isinstance(s, ast.If) and not s.orelse and len(s.body) == 1 and \
        isinstance(s.body[0], ast.Break) and isinstance(s.test, ast.UnaryOp) and \
        isinstance(s.test.op, ast.Not)


def fold_function(body: list) -> list:
    """The statements of a translated function body, with expressions folded."""
    live = _Liveness()
    live.block(body, set(), None)
    return _Folder(live.after).block(body)
