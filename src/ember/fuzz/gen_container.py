"""List, dict, tuple and Optional expressions, comprehensions with filters, and the
iteration sources shared by comprehensions and for loops (range, lists, dicts, strings,
enumerate, zip)."""

from __future__ import annotations

import ast

from ember.fuzz.astutil import binop, call, const, method, name, slice_
from ember.fuzz.gtypes import (
    BOOL,
    INT,
    KEYS,
    LIST_BOUND,
    STR,
    allowed,
    dict_of,
    native,
    kind,
    list_of,
    random_type,
    tuple_of,
)
from ember.fuzz.scope import E


class ContainerExprs:
    # -- literals -----------------------------------------------------------------------------
    def list_literal(self, t, d):
        n = self.rng.randint(1, 4)
        return E(ast.List(elts=[self.stored(t[1], min(d, 1)) for _ in range(n)],
                          ctx=ast.Load()), n)

    def dict_literal(self, t, d):
        n = self.rng.randint(1, 3)
        keys = [self.stored(t[1], 0) for _ in range(n)]
        return E(ast.Dict(keys=keys, values=[self.stored(t[2], min(d, 1)) for _ in keys]), n)

    def tuple_literal(self, t, d):
        return E(ast.Tuple(elts=[self.stored(x, min(d, 1)) for x in t[1:]], ctx=ast.Load()))

    def opt_literal(self, t, d):
        if self.rng.random() < 0.4:
            return E(ast.Constant(None))
        return E(self.stored(t[1], d))

    # -- lists --------------------------------------------------------------------------------
    def list_prods(self):
        return [(3, self.list_comp), (2, self.list_sorted), (2, self.list_slice),
                (1, self.list_concat), (2, self.list_special)]

    def list_comp(self, t, d):
        it, targets, frozen = self.iter_source(d)
        with self.ctx.loop(targets, frozen):
            elt = self.stored(t[1], d)
            ifs = [self.expr(BOOL, d).node for _ in range(self.rng.random() < 0.5)]
        return E(ast.ListComp(elt=elt, generators=[self.comprehension(targets, it, ifs)]),
                 LIST_BOUND)

    def comprehension(self, targets, it, ifs) -> ast.comprehension:
        return ast.comprehension(target=self.target(targets), iter=it, ifs=ifs, is_async=0)

    def target(self, targets):
        if len(targets) == 1:
            return ast.Name(id=targets[0][0], ctx=ast.Store())
        return ast.Tuple(elts=[ast.Name(id=n, ctx=ast.Store()) for n, _ in targets],
                         ctx=ast.Store())

    def list_sorted(self, t, d):
        if kind(t[1]) not in ("int", "str", "float", "bool"):
            return None
        if native() and t[1] == "float":  # sorting floats: not native yet
            return None
        xs = self.expr(t, d)
        kw = {}
        if self.rng.random() < 0.4:
            kw["reverse"] = ast.Constant(self.rng.random() < 0.5)
        if t[1] == INT and self.rng.random() < 0.4:
            v = self.ctx.fresh("k")
            body = self.rng.choice((ast.UnaryOp(op=ast.USub(), operand=name(v)),
                                    binop(name(v), ast.Mod(), ast.Constant(3))))
            kw["key"] = ast.Lambda(args=_lambda_args([v]), body=body)
        return E(call("sorted", xs.node, **kw), xs.b)

    def list_slice(self, t, d):
        xs = self.expr(t, d)
        if self.rng.random() < 0.3:
            return E(slice_(xs.node, step=const(-1)), xs.b)
        lo = self.small_int(d, 4).node if self.rng.random() < 0.6 else None
        hi = const(self.rng.randint(-3, 6)) if self.rng.random() < 0.6 else None
        return E(slice_(xs.node, lo, hi), xs.b)

    def list_concat(self, t, d):
        a = self.expr(t, d)
        if self.rng.random() < 0.3:
            return E(binop(a.node, ast.Mult(), self.small_int(d, 3).node), a.b * 2)
        b = self.expr(t, d)
        return E(binop(a.node, ast.Add(), b.node), a.b + b.b)

    def list_special(self, t, d):
        el = t[1]
        opts = []
        if el == INT:
            opts += [self.list_range]
        if el == STR:
            opts += [self.list_split]
        opts += [self.list_dict_view, self.list_reversed]
        return self.rng.choice(opts)(t, d)

    def list_range(self, t, d):
        a = self.small_int(d, 6)
        if self.rng.random() < 0.5:
            return E(call("list", call("range", a.node)), 6)
        b = self.small_int(d, 9)
        step = const(self.rng.choice((1, 2, -1, 3)))
        return E(call("list", call("range", a.node, b.node, step)), 9)

    def list_split(self, t, d):
        s = self.expr(STR, d)
        if self.rng.random() < 0.5:
            return E(method(s.node, "split"), s.b + 1)
        sep = ast.Constant(self.rng.choice((",", " ", "a", "ab")))
        extra = [const(self.rng.randint(-1, 2))] if self.rng.random() < 0.3 else []
        return E(method(s.node, self.rng.choice(("split", "rsplit")), sep, *extra), s.b + 1)

    def list_dict_view(self, t, d):
        k = self.rng.choice(KEYS)
        if t[1] in KEYS and self.rng.random() < 0.5:
            dd = self.expr(dict_of(t[1], random_type(self.rng, 0)), d)
            return E(call("list", method(dd.node, "keys")), LIST_BOUND)
        dd = self.expr(dict_of(k, t[1]), d)
        return E(call("list", method(dd.node, "values")), LIST_BOUND)

    def list_reversed(self, t, d):
        xs = self.expr(t, d)
        return E(call("list", call("reversed", xs.node)), xs.b)

    # -- dicts --------------------------------------------------------------------------------
    def dict_prods(self):
        return [(3, self.dict_comp), (1, self.dict_copy)]

    def dict_comp(self, t, d):
        it, targets, frozen = self.iter_source(d)
        with self.ctx.loop(targets, frozen):
            key, value = self.stored(t[1], d), self.stored(t[2], d)
            ifs = [self.expr(BOOL, d).node for _ in range(self.rng.random() < 0.4)]
        gen = self.comprehension(targets, it, ifs)
        return E(ast.DictComp(key=key, value=value, generators=[gen]), LIST_BOUND)

    def dict_copy(self, t, d):
        dd = self.expr(t, d)
        return E(method(dd.node, "copy"), dd.b)

    # -- tuples and optionals ------------------------------------------------------------------
    def tuple_prods(self):
        return [(1, self.tuple_special)]

    def tuple_special(self, t, d):
        if t == tuple_of(INT, INT):
            return E(call("divmod", self.expr(INT, d).node, self.divisor(d).node))
        if t == tuple_of(STR, STR, STR):
            meth = self.rng.choice(("partition", "rpartition"))
            return E(method(self.expr(STR, d).node, meth,
                            ast.Constant(self.rng.choice((",", " ", "a")))))
        return self.tuple_literal(t, d)

    def opt_prods(self):
        return [(2, self.opt_get), (1, self.opt_value)]

    def opt_get(self, t, d):
        k = self.rng.choice(KEYS)
        dd = self.expr(dict_of(k, t[1]), d)
        return E(method(dd.node, "get", self.expr(k, d).node))

    def opt_value(self, t, d):
        return E(self.stored(t[1], d))

    # -- iteration sources ----------------------------------------------------------------------
    def iter_source(self, d):
        """(iterable expression, [(target name, type)], container types the loop iterates)."""
        r = self.rng.random()
        fresh = self.ctx.fresh
        if r < 0.25:
            hi = self.small_int(d, 7).node
            args = [hi] if self.rng.random() < 0.6 else [const(self.rng.randint(-2, 2)), hi,
                                                         const(self.rng.choice((1, 2, -1)))]
            it = call("range", *args)
            return (call("reversed", it) if self.rng.random() < 0.2 else it), \
                [(fresh("i"), INT)], ()
        el = random_type(self.rng, 1, optional=False)
        if r < 0.5:
            xs = self.expr(list_of(el), d)
            return xs.node, [(fresh("x"), el)], (list_of(el),)
        if r < 0.6:
            return self.expr(STR, d).node, [(fresh("c"), STR)], ()
        if r < 0.75:
            k = self.rng.choice(KEYS)
            dd = self.expr(dict_of(k, el), d)
            if self.rng.random() < 0.5:
                return dd.node, [(fresh("k"), k)], (dict_of(k, el),)
            return method(dd.node, "items"), [(fresh("k"), k), (fresh("val"), el)], \
                (dict_of(k, el),)
        if r < 0.87:
            xs = self.expr(list_of(el), d)
            start = [const(self.rng.randint(-3, 3))] if self.rng.random() < 0.3 else []
            return call("enumerate", xs.node, *start), [(fresh("n"), INT), (fresh("x"), el)], \
                (list_of(el),)
        el2 = self.rng.choice(allowed((INT, STR, BOOL)))
        a, b = self.expr(list_of(el), d), self.expr(list_of(el2), d)
        return call("zip", a.node, b.node), [(fresh("a"), el), (fresh("b"), el2)], \
            (list_of(el), list_of(el2))


def _lambda_args(names) -> ast.arguments:
    return ast.arguments(posonlyargs=[], args=[ast.arg(arg=n) for n in names], vararg=None,
                         kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
