"""lark callbacks that build ember AST nodes during parsing.

Spans come from the children: the first and last token or node of a rule.
Brackets and keywords are named terminals in the grammar so they are kept
long enough to give `f(x)` and `[]` their full spans; each callback drops
punctuation before reading its children. Binary, comparison and boolean
operators arrive as one flat sequence (grammar rule `opseq`) and are grouped
here by precedence climbing, which keeps the LALR parser's reductions few.
"""

from __future__ import annotations

import ast as pyast

from ember.errors import ParseError, Source, Span
from ember.frontend import ast as A
from ember.frontend.tokens import Token as FastToken
from ember.frontend.tokens import Tree

ZIP_STAR = "$zip_star"
"""The name `zip(*rows)` is called by: one list argument, a list of its columns."""

_TOKEN: tuple = (FastToken,)
"""The token classes callbacks see: the fast parser's, and lark's once lark's own parser
is built (accept_tokens)."""


def accept_tokens(cls) -> None:
    """Let the callbacks take tokens of class cls too (lark's, for lark's own parse)."""
    global _TOKEN
    if cls not in _TOKEN:
        _TOKEN = (FastToken, cls)

_PUNCT = {"LPAR", "RPAR", "LSQB", "RSQB", "LBRACE", "RBRACE", "COLON", "COMMA", "DOT",
          "DEF", "LAMBDA", "CLASS", "DEL", "IMPORT", "GLOBAL", "NONLOCAL", "AT", "ELSE",
          "FINALLY", "EQUAL", "RARROW", "SEMICOLON", "AS"}


def span_of(source: Source, line, col, end_line, end_col) -> Span:
    off = source.first_line - 1
    return Span(source, line + off, col, end_line + off, end_col)


def _first(x):
    if isinstance(x, A.Node):
        return x.span.line, x.span.col, True
    if isinstance(x, _TOKEN):
        return x.line, x.column, False
    if isinstance(x, (list, tuple)):
        for y in x:
            if isinstance(y, A.Node):  # the common cases of the recursive call, inline
                return y.span.line, y.span.col, True
            if isinstance(y, _TOKEN):
                return y.line, y.column, False
            r = _first(y)
            if r is not None:
                return r
    return None


def _last(x):
    if isinstance(x, A.Node):
        return x.span.end_line, x.span.end_col, True
    if isinstance(x, _TOKEN):
        return x.end_line, x.end_column, False
    if isinstance(x, (list, tuple)):
        for y in reversed(x):
            if isinstance(y, A.Node):  # the common cases of the recursive call, inline
                return y.span.end_line, y.span.end_col, True
            if isinstance(y, _TOKEN):
                return y.end_line, y.end_column, False
            r = _last(y)
            if r is not None:
                return r
    return None


def _is_punct(x) -> bool:
    return isinstance(x, _TOKEN) and (x.type in _PUNCT or x.type.startswith("__ANON"))


# Binary operator precedence (higher binds tighter); comparisons share one level.
_BIN_PREC = {"or": 1, "and": 2, "|": 5, "^": 6, "&": 7, "<<": 8, ">>": 8, "+": 9, "-": 9,
             "*": 10, "@": 10, "/": 10, "//": 10, "%": 10, "**": 12}
_CMP = {"<", ">", "==", ">=", "<=", "!=", "in", "not in", "is", "is not"}
_CMP_PREC = 4
_PREFIX_PREC = {"not": 3, "-": 11, "+": 11, "~": 11, "await": 13}


class Builder:
    """The callbacks; `source` is set for each parse (under the parser's lock)."""

    def __init__(self):
        self.source: Source | None = None
        self._prefixed: set[int] = set()

    def __default__(self, data, children, meta):
        """A rule without a method keeps its children together (lark's Transformer does
        the same with its Tree)."""
        return Tree(data, children, meta)

    # -- helpers -------------------------------------------------------------------------------
    def span(self, items) -> Span:
        if type(items) is list and len(items) == 1 and isinstance(items[0], _TOKEN):
            return self.tspan(items[0])  # a name, a constant: what the general case gives
        f, l = _first(items), _last(items)
        if f is None:
            return span_of(self.source, 1, 1, 1, 1)
        off = self.source.first_line - 1
        # Node spans are absolute already; token positions are relative to the parsed text.
        line, col = (f[0], f[1]) if f[2] else (f[0] + off, f[1])
        eline, ecol = (l[0], l[1]) if l[2] else (l[0] + off, l[1])
        return Span(self.source, line, col, eline, ecol)

    def tspan(self, tok) -> Span:
        return span_of(self.source, tok.line, tok.column, tok.end_line, tok.end_column)

    @staticmethod
    def strip(items):
        return [x for x in items if not _is_punct(x)]

    def fail(self, message, span):
        raise ParseError(message, span)

    # -- module / suites --------------------------------------------------------------------------
    def reset(self):
        self._prefixed.clear()

    def file_input(self, items):
        out = []
        for it in items:
            if isinstance(it, list):
                out.extend(it)
            elif isinstance(it, A.Node):
                out.append(it)
        return out

    def fstring_expr(self, items):
        return self.strip(items)[0]

    def simple_stmts(self, items):
        return [s for s in items if isinstance(s, A.Node)]

    suite = file_input

    # -- definitions ---------------------------------------------------------------------------------
    def funcdef(self, items):
        span = self.span(items)
        name, params, returns, body = self.strip(items)
        return A.FunctionDef(span, str(name), params or [], body, [], returns,
                             name_span=self.tspan(name))

    def async_funcdef(self, items):
        fn = items[1]
        fn.is_async = True
        return fn

    def async_stmt(self, items):
        node = items[1]
        if isinstance(node, A.FunctionDef):
            node.is_async = True
            return node
        return A.Await(self.span(items), node)

    def decorator(self, items):
        return self.strip(items)[0]

    def decorators(self, items):
        return list(items)

    def decorated(self, items):
        decos, node = items
        node.decorators = decos
        return node

    def parameters(self, items):
        out, kwonly, bare = [], False, None
        for p in self.strip(items):
            if p is None or p == "/":
                continue
            if p.kind == "star":
                kwonly = True
                if p.arg is None:
                    bare = p
                    continue
            elif p.kind == "normal" and kwonly:
                p.kind = "kwonly"
                bare = None
            if any(q.arg == p.arg for q in out):
                self.fail(f"duplicate argument '{p.arg}' in function definition", p.span)
            out.append(p)
        if bare is not None and not any(p.kind == "kwonly" for p in out):
            self.fail("named arguments must follow bare *", bare.span)
        return out

    def typedparam(self, items):
        name, ann = self.strip(items)
        return A.Arg(self.span(items), str(name), ann)

    def param_default(self, items):
        p, default = self.strip(items)
        p.default = default
        p.span = self.span(items)
        return p

    def param_star(self, items):
        p = items[1]
        if p is None:
            return A.Arg(self.span(items), None, None, None, "star")
        p.kind, p.span = "star", self.span(items)
        return p

    def param_starstar(self, items):
        p = items[1]
        p.kind, p.span = "starstar", self.span(items)
        return p

    def param_slash(self, items):
        return "/"

    def classdef(self, items):
        span = self.span(items)
        parts = self.strip(items)
        name, body = parts[0], parts[-1]
        args = parts[1] if len(parts) == 3 else None
        bases, keywords = args if args else ([], [])
        return A.ClassDef(span, str(name), bases, keywords, body)

    # -- lambda ------------------------------------------------------------------------------------
    def lambdef(self, items):
        params, body = self.strip(items)
        return A.Lambda(self.span(items), params or [], body)

    lambda_params = parameters

    def lparam(self, items):
        return A.Arg(self.span(items), str(items[0]))

    def lparam_default(self, items):
        name, default = self.strip(items)
        return A.Arg(self.span(items), str(name), None, default)

    def lparam_star(self, items):
        name = items[1]
        return A.Arg(self.span(items), str(name) if name else None, None, None, "star")

    def lparam_starstar(self, items):
        return A.Arg(self.span(items), str(items[1]), None, None, "starstar")

    # -- simple statements ---------------------------------------------------------------------------
    def expr_stmt(self, items):
        return A.Expr(self.span(items), items[0])

    yield_stmt = expr_stmt

    def assign(self, items):
        *targets, value = self.strip(items)
        return A.Assign(self.span(items), list(targets), value)

    def annassign(self, items):
        target, ann, value = self.strip(items)
        return A.AnnAssign(self.span(items), target, ann, value)

    def augassign(self, items):
        target, op, value = items
        return A.AugAssign(self.span(items), target, str(op)[:-1], value)

    def del_stmt(self, items):
        t = self.strip(items)[0]
        return A.Delete(self.span(items), t.elts if isinstance(t, A.Tuple) else [t])

    def pass_stmt(self, items):
        return A.Pass(self.span(items))

    def break_stmt(self, items):
        return A.Break(self.span(items))

    def continue_stmt(self, items):
        return A.Continue(self.span(items))

    def return_stmt(self, items):
        return A.Return(self.span(items), items[1])

    def raise_stmt(self, items):
        parts = [x for x in items if not (isinstance(x, _TOKEN) and x.type in ("RAISE", "FROM"))]
        exc, cause = (parts + [None, None])[:2]
        return A.Raise(self.span(items), exc, cause)

    def assert_stmt(self, items):
        return A.Assert(self.span(items), items[1], items[2])

    def global_stmt(self, items):
        return A.Global(self.span(items), [str(n) for n in self.strip(items)])

    def nonlocal_stmt(self, items):
        return A.Nonlocal(self.span(items), [str(n) for n in self.strip(items)])

    def dotted_name(self, items):
        return ".".join(str(t) for t in self.strip(items))

    def dotted_as_name(self, items):
        return (items[0], str(items[-1]) if items[-1] is not None else None)

    def import_as_name(self, items):
        return (str(items[0]), str(items[-1]) if len(items) > 1 and items[-1] else None)

    def import_as_names(self, items):
        return [i for i in self.strip(items) if i is not None]

    def import_name(self, items):
        return A.Import(self.span(items), [i for i in self.strip(items) if i is not None])

    def import_from(self, items):
        parts = [x for x in items if not (isinstance(x, _TOKEN) and x.type in
                                          ("FROM", "IMPORT", "LPAR", "RPAR"))]
        dots, module, names = parts
        if isinstance(names, _TOKEN):
            names = [("*", None)]
        return A.ImportFrom(self.span(items), module, names, len(str(dots)) if dots else 0)

    # -- compound statements -------------------------------------------------------------------------
    def if_stmt(self, items):
        kw, test, body, *elifs, orelse = self.strip(items)
        tail = orelse or []
        for ekw, etest, ebody in reversed(elifs):
            tail = [A.If(self.span([ekw, ebody]), etest, ebody, tail, self.tspan(ekw))]
        return A.If(self.span(items), test, body, tail, self.tspan(kw))

    def match_stmt(self, items):
        kw, subject, *cases = self.strip(items)
        cases = [c for c in cases if isinstance(c, A.MatchCase)]
        return A.Match(self.span(items), subject, cases, self.tspan(kw))

    def case_block(self, items):
        pattern, body, mid = items[1], items[-1], list(items[2:-1])
        name = next((str(t) for t in mid if isinstance(t, _TOKEN) and t.type == "NAME"), None)
        at = next((i for i, t in enumerate(mid) if isinstance(t, _TOKEN) and t.type == "IF"),
                  None)
        guard = mid[at + 1] if at is not None else None
        return A.MatchCase(self.span(items), pattern, name, guard, body)

    def elif_clause(self, items):
        return tuple(self.strip(items))

    def else_clause(self, items):
        return self.strip(items)[0]

    def while_stmt(self, items):
        kw, test, body, orelse = self.strip(items)
        return A.While(self.span(items), test, body, orelse or [], self.tspan(kw))

    def for_stmt(self, items):
        parts = [x for x in self.strip(items) if not (isinstance(x, _TOKEN) and x.type == "IN")]
        kw, target, it, body, orelse = parts
        return A.For(self.span(items), target, it, body, orelse or [], self.tspan(kw))

    def try_stmt(self, items):
        kw, body, *rest = self.strip(items)
        handlers = [h for h in rest[:-2] if h is not None]
        orelse, final = rest[-2], rest[-1]
        if not handlers and final is None:
            self.fail("expected 'except' or 'finally' block", self.tspan(kw))
        return A.Try(self.span(items), body, handlers, orelse or [], final or [])

    def finally_clause(self, items):
        return self.strip(items)[0]

    def except_clause(self, items):
        typ, body = items[1], items[-1]
        name = next((t for t in items[2:-1] if isinstance(t, _TOKEN) and t.type == "NAME"), None)
        return A.ExceptHandler(self.span(items), typ, str(name) if name else None, body)

    def with_stmt(self, items):
        kw, *withs, body = self.strip(items)
        return A.With(self.span(items), list(withs), body)

    def with_item(self, items):
        return (items[0], items[-1] if len(items) > 1 else None)

    # -- expressions ---------------------------------------------------------------------------------
    def ifexp(self, items):
        body, _if, test, orelse = self.strip(items)
        return A.IfExp(self.span(items), test, body, orelse)

    def namedexpr(self, items):
        name, value = self.strip(items)
        return A.NamedExpr(self.span(items), A.Name(self.tspan(name), str(name)), value)

    paren_namedexpr = namedexpr

    def prefix(self, items):
        return items[0]

    def binop(self, items):
        return items

    def prefixed(self, items):
        *prefixes, operand = items
        node = operand
        for tok in reversed(prefixes):
            node = A.UnaryOp(self.span([tok, node]), str(tok), node)
            self._prefixed.add(id(node))
        return node

    def opseq(self, items):
        seq = []  # flat: ("pre", tok) | ("atom", node) | ("bin", op, span)
        for i, it in enumerate(items):
            if i % 2:
                seq.append(("bin", " ".join(str(t) for t in it), self.span(it)))
            else:
                seq.extend(self._unwrap(it))
        node, pos = _Climber(self, seq).expr(0, 0)
        return node

    def _unwrap(self, node):
        out = []
        while isinstance(node, A.UnaryOp) and id(node) in self._prefixed:
            self._prefixed.discard(id(node))
            out.append(("pre", node.op, node.span))
            node = node.operand
        out.append(("atom", node))
        return out

    def star_expr(self, items):
        return A.Starred(self.span(items), items[1])

    def call(self, items):
        func, args = self.strip(items)
        pos, kws = args if args else ([], [])
        if isinstance(func, A.Name) and func.id == "zip" and len(pos) == 1 and not kws and \
                isinstance(pos[0], A.Starred):  # zip(*rows): its columns (builtins_.b_zip_star)
            return A.Call(self.span(items), A.Name(func.span, ZIP_STAR), [pos[0].value], [])
        return A.Call(self.span(items), func, pos, kws)

    def arguments(self, items):
        pos, kws = [], []
        for a in self.strip(items):
            if a is None:
                continue
            if not isinstance(a, A.Keyword) and kws:  # CPython's SyntaxErrors
                splat = any(k.arg is None for k in kws)
                if isinstance(a, A.Starred) and splat:
                    self.fail("iterable argument unpacking follows keyword argument "
                              "unpacking", a.span)
                if not isinstance(a, A.Starred):
                    self.fail("positional argument follows keyword argument" +
                              (" unpacking" if splat else ""), a.span)
            (kws if isinstance(a, A.Keyword) else pos).append(a)
        return pos, kws

    def genexp_arg(self, items):
        elt, gens = self.strip(items)
        return [A.GeneratorExp(self.span(items), elt, gens)], []

    def kwarg(self, items):
        name, value = self.strip(items)
        return A.Keyword(self.span(items), str(name), value)

    def star_arg(self, items):
        return A.Starred(self.span(items), items[1])

    def starstar_arg(self, items):
        return A.Keyword(self.span(items), None, items[1])

    def getitem(self, items):
        value, index = self.strip(items)
        return A.Subscript(self.span(items), value, index)

    def getattr(self, items):
        value, name = self.strip(items)
        return A.Attribute(self.span(items), value, str(name))

    def subscript_tuple(self, items):
        return A.Tuple(self.span(items), [i for i in self.strip(items) if i is not None])

    def slice(self, items):
        parts, cur = [], []
        for x in items:
            if isinstance(x, _TOKEN) and x.type == "COLON":
                parts.append(cur)
                cur = []
            else:
                cur.append(x)
        parts.append(cur)
        vals = [next((y for y in p if y is not None), None) for p in parts] + [None, None]
        return A.Slice(self.span(items), vals[0], vals[1], vals[2])

    def tuple(self, items):
        return A.Tuple(self.span(items), [i for i in self.strip(items) if i is not None])

    empty_tuple = paren_tuple = tuple

    def paren(self, items):
        inner = self.strip(items)[0]
        self._prefixed.discard(id(inner))  # (-x) ** 2 is not -(x ** 2)
        return inner

    def list(self, items):
        return A.List(self.span(items), [i for i in self.strip(items) if i is not None])

    def set(self, items):
        return A.Set(self.span(items), [i for i in self.strip(items) if i is not None])

    def dict(self, items):
        keys, values = [], []
        for it in self.strip(items):
            if it is not None:
                keys.append(it[0])
                values.append(it[1])
        return A.Dict(self.span(items), keys, values)

    def key_value(self, items):
        k, v = self.strip(items)
        return (k, v)

    def dict_splat(self, items):
        return (None, items[1])

    def comp_fors(self, items):
        return list(items)

    def comp_for(self, items):
        parts = [x for x in self.strip(items) if not (isinstance(x, _TOKEN) and x.type == "IN")]
        kw, target, it, *ifs = parts
        return A.Comprehension(self.span(items), target, it, list(ifs))

    def comp_if(self, items):
        return items[-1]

    def listcomp(self, items):
        elt, gens = self.strip(items)
        return A.ListComp(self.span(items), elt, gens)

    def setcomp(self, items):
        elt, gens = self.strip(items)
        return A.SetComp(self.span(items), elt, gens)

    def genexp(self, items):
        elt, gens = self.strip(items)
        return A.GeneratorExp(self.span(items), elt, gens)

    def dictcomp(self, items):
        (k, v), gens = self.strip(items)
        return A.DictComp(self.span(items), k, v, gens)

    def yield_expr(self, items):
        return A.Yield(self.span(items), items[1])

    def yield_from(self, items):
        return A.Yield(self.span(items), self.strip(items)[-1], True)

    def name(self, items):
        return A.Name(self.span(items), str(items[0]))

    def ellipsis(self, items):
        return A.Constant(self.span(items), Ellipsis)

    def const_none(self, items):
        return A.Constant(self.span(items), None)

    def const_true(self, items):
        return A.Constant(self.span(items), True)

    def const_false(self, items):
        return A.Constant(self.span(items), False)

    def number(self, items):
        tok = items[0]
        text = str(tok).replace("_", "")
        if tok.type == "DEC_NUMBER":
            value = int(text)
        elif tok.type == "FLOAT_NUMBER":
            value = float(text)
        elif tok.type == "IMAG_NUMBER":
            value = complex(text)
        else:
            value = int(text, 0)
        return A.Constant(self.span(items), value)

    def strings(self, items):
        span = self.span(items)
        parts = []
        for tok in items:
            parts.extend(self._string(tok))
        if all(isinstance(p, A.Constant) for p in parts):
            values = [p.value for p in parts]
            if len({type(v) for v in values}) > 1:
                self.fail("cannot mix bytes and str literals", span)
            return A.Constant(span, values[0] if len(values) == 1 else
                              (b"" if isinstance(values[0], bytes) else "").join(values))
        if any(isinstance(p, A.Constant) and isinstance(p.value, bytes) for p in parts):
            self.fail("cannot mix bytes and f-string literals", span)
        return A.JoinedStr(span, _merge_constants(parts))

    def _string(self, tok):
        from ember.frontend.fstrings import parse_fstring

        text = str(tok)
        prefix = text[:len(text) - len(text.lstrip("uUbBrRfF"))]
        span = self.tspan(tok)
        if "f" in prefix.lower():
            return parse_fstring(self, tok, text, prefix, span)
        try:
            return [A.Constant(span, pyast.literal_eval(text))]
        except (SyntaxError, ValueError) as e:
            self.fail(f"invalid string literal: {e}", span)


class _Climber:
    """Precedence climbing over a flat operator sequence (see Builder.opseq)."""

    def __init__(self, b, seq):
        self.b, self.seq = b, seq

    def expr(self, pos, min_prec):
        left, pos = self.operand(pos)
        while pos < len(self.seq):
            _, op, op_span = self.seq[pos]
            prec = _CMP_PREC if op in _CMP else _BIN_PREC[op]
            if prec < min_prec:
                break
            if op in _CMP:
                left, pos = self.compare(left, pos)
            elif op in ("and", "or"):
                left, pos = self.boolop(left, pos, op, prec)
            else:
                right, pos = self.expr(pos + 1, prec if op == "**" else prec + 1)
                left = A.BinOp(left.span.to(right.span), left, op, right)
        return left, pos

    def operand(self, pos):
        item = self.seq[pos]
        if item[0] == "atom":
            return item[1], pos + 1
        _, op, span = item
        inner, pos = self.expr(pos + 1, _PREFIX_PREC[op])
        if op == "await":
            return A.Await(span.to(inner.span), inner), pos
        return A.UnaryOp(span.to(inner.span), op, inner), pos

    def compare(self, left, pos):
        ops, rights, spans = [], [], []
        while pos < len(self.seq) and self.seq[pos][1] in _CMP:
            _, op, op_span = self.seq[pos]
            right, pos = self.expr(pos + 1, _CMP_PREC + 1)
            ops.append(op)
            rights.append(right)
            spans.append(op_span)
        return A.Compare(left.span.to(rights[-1].span), left, ops, rights, spans), pos

    def boolop(self, left, pos, op, prec):
        values = [left]
        while pos < len(self.seq) and self.seq[pos][1] == op:
            right, pos = self.expr(pos + 1, prec + 1)
            values.append(right)
        return A.BoolOp(values[0].span.to(values[-1].span), op, values), pos


def _merge_constants(parts):
    out = []
    for p in parts:
        if isinstance(p, A.Constant) and out and isinstance(out[-1], A.Constant):
            out[-1] = A.Constant(out[-1].span.to(p.span), out[-1].value + p.value)
        elif not (isinstance(p, A.Constant) and p.value == ""):
            out.append(p)
    return out


BUILDER = Builder()
