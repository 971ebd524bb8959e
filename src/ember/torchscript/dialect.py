"""The printer's conventions rewritten into plain ember source, on ember's AST (spans are
kept, so errors point at the archive's code).

* dotted names rooted at `torch`, `ops`, `__torch__` and `CONSTANTS` become one Name
  (`torch.conv2d`, `__torch__.torch.nn.functional.relu`, `CONSTANTS.c0`) that the archive's
  scope (prelude.py) resolves;
* `getattr(self, "1")` is the attribute `self.1` (a numbered child);
* `ops.prim.RaiseException(msg, "builtins.ValueError")` is `raise ValueError(msg)`, and the
  statements after a raise in a block (`uninitialized` placeholders) are dropped;
* `x = __torch__.C.__new__(__torch__.C)` + `(x).__init__(args)` is `x = C(args)`;
* `_0 = __torch__.f` and `_1 = "a format string"` (the printer's aliases of a function it
  calls and of long strings), assigned once, are substituted into their uses;
* parameters with list defaults (and those before them) lose their defaults;
* `_n = torch._set_item(l, i, v)` and `_n = torch.append(l, v)` are statements.

The input AST is never modified (the parser caches it): rewritten nodes are copies.
"""

from __future__ import annotations

from dataclasses import fields

from ember.frontend import ast as A
from ember.ops import EXCEPTION_CLASSES

ROOTS = ("torch", "ops", "__torch__", "CONSTANTS")
RAISE = "ops.prim.RaiseException"


def dotted(node) -> str | None:
    """`a.b.c` of an attribute chain on a name, else None."""
    parts = []
    while isinstance(node, A.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, A.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def field_name(name: str) -> str:
    """A field name for an attribute of an archive's module ("0" of a Sequential -> "_0")."""
    return name if name.isidentifier() else "_" + "".join(
        c if c.isalnum() or c == "_" else "_" for c in name)


def rewrite_expr(node):
    """A rewritten copy of an expression (or any node)."""
    if isinstance(node, A.Attribute):
        name = dotted(node)
        if name is not None and name.split(".", 1)[0] in ROOTS:
            return A.Name(node.span, name)
    if isinstance(node, A.Call) and isinstance(node.func, A.Name) and \
            node.func.id == "getattr" and len(node.args) == 2 and not node.keywords and \
            isinstance(node.args[1], A.Constant) and isinstance(node.args[1].value, str):
        return A.Attribute(node.span, rewrite_expr(node.args[0]),
                           field_name(node.args[1].value))
    return _copy_with(node, rewrite_expr)


_FIELDS: dict = {}
_ALL: dict = {}


def _shallow(node):
    """copy.copy of a node, without copy's generic protocol (nodes are slotted dataclasses)."""
    cls = type(node)
    names = _ALL.get(cls)
    if names is None:
        names = _ALL[cls] = tuple(f.name for f in fields(cls))
    out = cls.__new__(cls)
    for name in names:
        setattr(out, name, getattr(node, name))
    return out


def _fields(node) -> tuple:
    """The names of a node class's child-bearing fields (cached: dataclasses.fields is slow)."""
    cls = type(node)
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in fields(cls) if f.name != "span")
    return names


def _copy_with(node, fn):
    if not isinstance(node, A.Node):
        return node
    out = _shallow(node)
    for name in _fields(node):
        v = getattr(node, name)
        if isinstance(v, A.Node):
            setattr(out, name, fn(v))
        elif isinstance(v, list):
            setattr(out, name, [_item(x, fn) for x in v])
    return out


def _item(x, fn):
    if isinstance(x, A.Node):
        return fn(x)
    if isinstance(x, tuple):
        return tuple(fn(y) if isinstance(y, A.Node) else y for y in x)
    return x


def rewrite_function(fdef: A.FunctionDef) -> A.FunctionDef:
    out = _shallow(fdef)
    out.args = _drop_list_defaults([_copy_with(a, rewrite_expr) for a in fdef.args])
    out.returns = rewrite_expr(fdef.returns) if fdef.returns is not None else None
    body = rewrite_block(fdef.body)
    out.body = _substitute_aliases(body)
    return out


def _drop_list_defaults(args: list) -> list:
    """Parameters up to the last one whose default is a list literal lose their defaults:
    ember's defaults are scalars, and the printer writes every argument of the calls it
    prints, so the archive's own calls never use them."""
    last = max((i for i, a in enumerate(args) if isinstance(a.default, (A.List, A.Dict))),
               default=-1)
    for i in range(last + 1):
        if args[i].default is not None:
            args[i].default = None
    return args


def rewrite_block(stmts: list) -> list:
    out = []
    i = 0
    while i < len(stmts):
        s = stmts[i]
        ctor = _constructor(s, stmts[i + 1] if i + 1 < len(stmts) else None)
        if ctor is not None:
            out.append(ctor)
            i += 2
            continue
        r = rewrite_stmt(s)
        out.append(r)
        i += 1
        if isinstance(r, A.Raise):
            break  # what follows a raise is dead (the printer's `uninitialized` values)
    return out


def rewrite_stmt(s):
    if isinstance(s, (A.Expr, A.Assign)) and isinstance(s.value, A.Call):
        call = s.value
        name = dotted(call.func)
        if name == RAISE and isinstance(s, A.Expr):
            return _raise(s, call)
        if name in ("torch._set_item", "torch.append") and len(call.args) == 3 - \
                (name == "torch.append") and not call.keywords:
            args = [rewrite_expr(a) for a in call.args]
            if name == "torch._set_item":
                return A.Assign(s.span, [A.Subscript(call.span, args[0], args[1])], args[2])
            return A.Expr(s.span, A.Call(call.span, A.Attribute(call.span, args[0], "append"),
                                         [args[1]], []))
    if isinstance(s, A.If):
        out = _shallow(s)
        out.test = rewrite_expr(s.test)
        out.body = rewrite_block(s.body)
        out.orelse = rewrite_block(s.orelse)
        return out
    if isinstance(s, (A.For, A.While)):
        out = _shallow(s)
        if isinstance(s, A.For):
            out.target = rewrite_expr(s.target)
            out.iter = rewrite_expr(s.iter)
        else:
            out.test = rewrite_expr(s.test)
        out.body = rewrite_block(s.body)
        out.orelse = rewrite_block(s.orelse)
        return out
    if isinstance(s, A.With):
        out = _shallow(s)
        out.items = [_item(x, rewrite_expr) for x in s.items]
        out.body = rewrite_block(s.body)
        return out
    if isinstance(s, A.Try):
        out = _shallow(s)
        out.body = rewrite_block(s.body)
        out.handlers = [_handler(h) for h in s.handlers]
        out.orelse = rewrite_block(s.orelse)
        out.finalbody = rewrite_block(s.finalbody)
        return out
    if isinstance(s, A.FunctionDef):
        return rewrite_function(s)
    return rewrite_expr(s)


def _handler(h):
    out = _shallow(h)
    out.type = rewrite_expr(h.type) if h.type is not None else None
    out.body = rewrite_block(h.body)
    return out


def _raise(s, call):
    args = [rewrite_expr(a) for a in call.args]
    cls = "Exception"
    if len(args) >= 2 and isinstance(args[1], A.Constant) and isinstance(args[1].value, str):
        name = args[1].value.rsplit(".", 1)[-1]
        cls = name if name in EXCEPTION_CLASSES else "Exception"
        args = args[:1]
    exc = A.Call(call.span, A.Name(call.func.span, cls), args[:1], [])
    return A.Raise(s.span, exc, None)


def _constructor(s, nxt):
    """`x = __torch__.C.__new__(__torch__.C)` then `_ = (x).__init__(args)` -> `x = C(args)`."""
    if not (isinstance(s, A.Assign) and len(s.targets) == 1 and
            isinstance(s.targets[0], A.Name) and isinstance(s.value, A.Call)):
        return None
    name = dotted(s.value.func)
    if name is None or not name.startswith("__torch__.") or not name.endswith(".__new__"):
        return None
    cls = name[:-len(".__new__")]
    if nxt is None or not isinstance(nxt, (A.Assign, A.Expr)) or \
            not isinstance(nxt.value, A.Call):
        return None
    init = nxt.value
    if not (isinstance(init.func, A.Attribute) and init.func.attr == "__init__" and
            isinstance(init.func.value, A.Name) and init.func.value.id == s.targets[0].id):
        return None
    call = A.Call(s.value.span, A.Name(s.value.func.span, cls),
                  [rewrite_expr(a) for a in init.args],
                  [rewrite_expr(k) for k in init.keywords])
    return A.Assign(s.span, [s.targets[0]], call)


def _substitute_aliases(body: list) -> list:
    """Drop `_n = <__torch__ name>` assignments whose target is assigned once and put the
    name where `_n` is read."""
    counts: dict = {}
    for node in _walk(body):
        if isinstance(node, A.Assign):
            for t in node.targets:
                for n in _walk([t]):
                    if isinstance(n, A.Name):
                        counts[n.id] = counts.get(n.id, 0) + 1
        elif isinstance(node, (A.For, A.AugAssign, A.AnnAssign)):
            for n in _walk([node.target]):
                if isinstance(n, A.Name):
                    counts[n.id] = counts.get(n.id, 2) + 2
    body = _inline_index_lists(body, counts)
    aliases = {}
    kept = []
    for s in body:
        if isinstance(s, A.Assign) and len(s.targets) == 1 and \
                isinstance(s.targets[0], A.Name) and _aliasable(s.value) and \
                counts.get(s.targets[0].id) == 1:
            aliases[s.targets[0].id] = s.value
            continue
        kept.append(s)
    if not aliases:
        return kept
    return [_replace_names(s, aliases) for s in kept]


def _aliasable(value) -> bool:
    """A function name or a string literal (format strings must be literals for ember)."""
    return (isinstance(value, A.Name) and value.id.startswith("__torch__.")) or \
        (isinstance(value, A.Constant) and isinstance(value.value, str))


_INDEX_CALLS = ("torch.index", "torch.index_put_", "torch.index_put")


def _inline_index_lists(body: list, counts: dict) -> list:
    """`_5 = annotate(List[Optional[Tensor]], [None, idx])` ... `torch.index(x, _5)`: the
    list literal is written into the call (the assignment stays), so that the indexing
    is a subscript ember can type."""
    lists = {}
    for node in _walk(body):
        if isinstance(node, A.Assign) and len(node.targets) == 1 and \
                isinstance(node.targets[0], A.Name) and counts.get(node.targets[0].id) == 1 \
                and isinstance(node.value, A.Call) and isinstance(node.value.func, A.Name) \
                and node.value.func.id == "annotate" and len(node.value.args) == 2 and \
                isinstance(node.value.args[1], A.List):
            lists[node.targets[0].id] = node.value
    if not lists:
        return body

    def fix(node):
        if isinstance(node, A.Call) and isinstance(node.func, A.Name) and \
                node.func.id in _INDEX_CALLS and len(node.args) >= 2 and \
                isinstance(node.args[1], A.Name) and node.args[1].id in lists:
            out = _copy_with(node, fix)
            out.args = [out.args[0], lists[node.args[1].id]] + out.args[2:]
            return out
        return _copy_with(node, fix)
    return [fix(s) for s in body]


def _replace_names(node, aliases):
    if isinstance(node, A.Name) and node.id in aliases:
        value = _shallow(aliases[node.id])
        value.span = node.span
        return value
    return _copy_with(node, lambda n: _replace_names(n, aliases))


def _walk(nodes):
    stack = list(nodes)
    while stack:
        n = stack.pop()
        if not isinstance(n, A.Node):
            continue
        yield n
        for name in _fields(n):
            v = getattr(n, name)
            if isinstance(v, A.Node):
                stack.append(v)
            elif isinstance(v, list):
                for x in v:
                    if isinstance(x, A.Node):
                        stack.append(x)
                    elif isinstance(x, tuple):
                        stack.extend(y for y in x if isinstance(y, A.Node))
