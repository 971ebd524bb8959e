"""List/dict comprehensions and generator expressions, as loops that fill a fresh container.

`[f(x) for x in xs if c(x)]` becomes the statements
    for x in xs:
        if c(x):
            <append f(x) to the result>
so every iterable form the `for` statement supports works here too. The
comprehension's variables are its own (Python 3 scoping): outer variables of
the same name are hidden while it runs and are unchanged afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass

from ember.frontend import ast as A
from ember.frontend.env import target_names
from ember.frontend.typing_ import ErrorType, show
from ember.ir import types as T


@dataclass(eq=False, slots=True)
class Append(A.Node):
    """Synthetic statement: add elt (or key: value) to the comprehension's result."""

    elt: A.Node
    key: A.Node | None = None


def emit_comprehension(em, node, expected, kind):
    loc = em.loc(node)
    if kind == "dict":
        want_k = expected.key if isinstance(expected, T.DictType) else None
        want_v = expected.value if isinstance(expected, T.DictType) else None
        result = em.b.create("dict.new", [], [T.DictType(want_k or T.STR, want_v or T.TENSOR)],
                             loc=loc).result
        state = _State(result, kind, want_k, want_v)
    else:
        want = expected.elem if isinstance(expected, T.ListType) else None
        result = em.b.create("list.new", [], [T.ListType(want or T.TENSOR)], loc=loc).result
        state = _State(result, kind, None, want)
    stmt = _loops(node, kind)
    hidden = {}
    for gen in node.generators:
        for name in target_names(gen.target):
            if name in em.env.vars and name not in hidden:
                hidden[name] = em.env.pop(name)
    state.hidden = hidden
    state.names = {n for gen in node.generators for n in target_names(gen.target)}
    em.comprehensions.append(state)
    saved_names = set(em.env.names())
    em.stmt(stmt)
    em.comprehensions.pop()
    for name in list(em.env.names()):
        if name not in saved_names:
            em.env.pop(name)
    em.env.vars.update(hidden)
    state.finish()
    if kind == "dict" and isinstance(result.type.key, T.TensorType):
        from ember.frontend.annotations import TENSOR_KEYS
        return em.unsupported(TENSOR_KEYS, node.span)
    return result


def _loops(node, kind):
    if kind == "dict":
        inner = Append(node.span, node.value, node.key)
    else:
        inner = Append(node.span, node.elt)
    body = [inner]
    for gen in reversed(node.generators):
        for cond in reversed(gen.ifs):
            body = [A.If(cond.span, cond, body, [])]
        body = [A.For(gen.span, gen.target, gen.iter, body, [])]
    return body[0]


class _State:
    def __init__(self, result, kind, want_k, want_v):
        self.result = result
        self.kind = kind
        self.want_k = want_k
        self.want_v = want_v
        self.key_type = None
        self.elem_type = None
        self.hidden: dict = {}
        """The outer variables its targets hide while it runs: name -> Var."""
        self.names: set = set()
        """Every name its `for` targets bind."""

    def finish(self):
        """Give the result container its element type, now that the elements are known."""
        if self.kind == "dict":
            k = self.want_k or self.key_type or T.STR
            v = self.want_v or self.elem_type or T.TENSOR
            self.result.type = T.DictType(k, v)
        else:
            self.result.type = T.ListType(self.want_v or self.elem_type or T.TENSOR)


def s_Append(em, s):
    state = em.comprehensions[-1]
    v = em.value(s.elt, state.want_v)
    if isinstance(v.type, ErrorType):
        return
    state.elem_type = _unify(em, state.elem_type, v, s.elt, state.want_v)
    v = em.coerce(v, state.elem_type, s.elt.span)
    loc = em.loc(s.elt)
    if state.kind == "dict":
        k = em.value(s.key, state.want_k)
        if isinstance(k.type, ErrorType):
            return
        state.key_type = _unify(em, state.key_type, k, s.key, state.want_k)
        k = em.coerce(k, state.key_type, s.key.span)
        em.b.kernel("dict.setitem", [state.result, k, v], T.NONE, loc)
    else:
        em.b.kernel("list.append", [state.result, v], T.NONE, loc)


def _unify(em, current, v, node, want):
    if want is not None:
        return want
    if current is None or current == v.type:
        return v.type
    j = T.join(current, v.type)
    if j is None:
        from ember.frontend.exprs import mix_hint
        em.error(f"comprehension elements have different types ({show(current)} and "
                 f"{show(v.type)}){mix_hint(current, v.type)}", node.span)
        return current
    if j != current:
        em.error("comprehension elements have different types; annotate the result "
                 f"(e.g. xs: List[{j}] = [...])", node.span)
    return current
