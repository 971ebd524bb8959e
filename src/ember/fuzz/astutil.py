"""Small constructors for the Python AST nodes the generators emit."""

from __future__ import annotations

import ast


def name(n: str) -> ast.Name:
    return ast.Name(id=n, ctx=ast.Load())


def call(fn, *args, **kw) -> ast.Call:
    f = name(fn) if isinstance(fn, str) else fn
    return ast.Call(func=f, args=list(args),
                    keywords=[ast.keyword(arg=k, value=v) for k, v in kw.items()])


def method(obj, meth: str, *args) -> ast.Call:
    return ast.Call(func=ast.Attribute(value=obj, attr=meth, ctx=ast.Load()), args=list(args),
                    keywords=[])


def const(v) -> ast.expr:
    if isinstance(v, (int, float)) and not isinstance(v, bool) and (v < 0 or str(v)[0] == "-"):
        return ast.UnaryOp(op=ast.USub(), operand=ast.Constant(-v))
    return ast.Constant(v)


def binop(a, op, b) -> ast.BinOp:
    return ast.BinOp(left=a, op=op, right=b)


def index(v, i) -> ast.Subscript:
    return ast.Subscript(value=v, slice=i, ctx=ast.Load())


def slice_(v, lo=None, hi=None, step=None) -> ast.Subscript:
    return index(v, ast.Slice(lower=lo, upper=hi, step=step))
