"""Statements: assignment, if, return, raise, assert, del, try, with, nested defs."""

from __future__ import annotations

from ember.errors import NameResolutionError, UnsupportedError
from ember.frontend import ast as A
from ember.frontend.env import (
    PendingSlot, Var, changed_names, defined_in, ir_names, slot_value,
)
from ember.frontend.meta import MBuiltin, MClass, MLambda, MModule, MOpFunc, MSlice
from ember.frontend.typing_ import ERROR, ErrorType, show
from ember.ir import Block, Region
from ember.ir import types as T
from ember.ir.ops import TryOp, VarNewOp


def is_poison(v) -> bool:
    return isinstance(getattr(v, "type", None), ErrorType)


_LOCAL_IMPORTS = {"math", "cmath", "torch", "torch.nn", "torch.nn.functional", "typing",
                  "enum", "collections"}


class StmtMixin:
    def stmt(self, s) -> None:
        handler = getattr(self, "s_" + type(s).__name__, None)
        if handler is None:
            self.unsupported(f"'{type(s).__name__}' statements are not supported", s.span)
            return
        self.b.loc = self.loc(s)
        handler(s)

    # -- simple statements ----------------------------------------------------------------------
    def s_Pass(self, s):
        pass

    def s_GenYield(self, s):
        from ember.frontend.generators import s_GenYield
        s_GenYield(self, s)

    def s_Append(self, s):
        from ember.frontend.comprehensions import s_Append
        s_Append(self, s)

    def s_Expr(self, s):
        v = s.value
        if isinstance(v, A.Constant) and isinstance(v.value, str):
            return  # docstring
        if isinstance(v, A.Yield):
            from ember.frontend.generators import yield_refused
            yield_refused(self, v)
            return
        self.value(v)

    def s_Return(self, s):
        if self.handlers and any(h == "finally" for h in self.handlers):
            pass
        if s.value is None:
            v = self.b.const(None, T.NONE, loc=self.loc(s))
        else:
            v = self.value(s.value, expected=self.declared_ret)
        if self.declared_ret is not None:
            v = self.coerce(v, self.declared_ret, s.value.span if s.value else s.span,
                            what=f"the return value of '{self.node.name}'")
        self.emit_return(v, s)

    def s_Assign(self, s):
        if isinstance(s.value, A.Yield):
            from ember.frontend.generators import yield_refused
            yield_refused(self, s.value)
            return
        expected = self._target_type(s.targets[0])
        value = self.expr(s.value, expected=expected)
        if isinstance(value, (MLambda, MSlice, MOpFunc, MBuiltin, MModule)) and \
                len(s.targets) == 1 and \
                isinstance(s.targets[0], A.Name) and self.env.get(s.targets[0].id) is None \
                and self.binding_counts.get(s.targets[0].id) == 1:
            # `f = lambda x: ...` bound once: typed at each call, like a def (and a slice
            # object, whose bounds are hidden variables; `neg = torch.add`, `F = torch.nn.
            # functional`: another name for the operator, builtin or module).
            self.local_metas[s.targets[0].id] = value
            return
        if isinstance(value, MSlice):
            self.unsupported("a slice object can only be bound to a local variable assigned "
                             "once, or used as an index", s.value.span)
            return
        value = self.as_value(value, s.value, expected)
        for target in s.targets:
            self.assign(target, value, s.value.span)

    def _target_type(self, target):
        """The type a value assigned to target must have, where it is known without emitting
        code: a variable's, or an element's of a list or dict variable (`d[k] = ...`)."""
        if isinstance(target, A.Name):
            var = self.env.get(target.id)
            if var is not None:
                return var.type
        if isinstance(target, A.Subscript) and not isinstance(target.slice, A.Slice):
            t = self._target_type(target.value)
            if isinstance(t, T.ListType):
                return t.elem
            if isinstance(t, T.DictType):
                return t.value
        return None

    def s_AnnAssign(self, s):
        from ember.frontend.vartuple import instance_type, variadic_item
        if variadic_item(s.annotation) is not None and s.value is not None and \
                isinstance(s.target, A.Name):  # x: Tuple[int, ...] = (1, 2): the value's type
            v = self.value(s.value)
            t = instance_type(self, s.annotation, v.type, s.value.span, f"'{s.target.id}'")
            self.write_var(s.target.id, v, s.value.span, declared_type=t)
            return
        if s.value is not None and isinstance(s.target, A.Name) and \
                self.ann.mentions_any(s.annotation):  # d: Dict[str, Any] = {...}
            from ember.frontend.any_locals import s_any_local
            return s_any_local(self, s)
        t = self.ann.resolve(s.annotation)
        if not isinstance(s.target, A.Name):
            if s.value is not None:
                self.assign(s.target, self.coerce(self.value(s.value, expected=t), t,
                                                  s.value.span), s.value.span)
            return
        if s.value is None:
            var = self.env.get(s.target.id)
            if var is None:
                self.env.set(s.target.id, Var(t, None, False, declared=True, span=s.span))
            return
        self.write_var(s.target.id, self.value(s.value, expected=t), s.value.span,
                       declared_type=t)

    def s_AugAssign(self, s):
        from ember.frontend.exprs import AUG_INPLACE

        t = s.target
        if isinstance(t, A.Name):
            cur = self.read_var(t.id, t.span)
            if cur is None:
                cur = self.error(f"variable '{t.id}' is used before it is assigned", t.span,
                                 NameResolutionError)
            if isinstance(cur.type, T.ListType) and s.op in AUG_INPLACE:
                self.list_inplace(cur, s)
                return
            new = self.binop(s.op, cur, self.value(s.value), s, (t, s.value), aug=True)
            self.write_var(t.id, new, s.span)
        elif isinstance(t, A.Subscript):
            obj = self.value(t.value)
            index = self.index_value(t.slice, obj)
            cur = self.subscript_get(obj, index, t)
            self.subscript_set(obj, index, self.aug_value(cur, s), t)
        elif isinstance(t, A.Attribute):
            obj = self.value(t.value)
            cur = self.as_value(self.attribute(obj, t), t)
            self.attribute_set(obj, t, self.aug_value(cur, s))
        else:
            self.unsupported("unsupported augmented assignment target", t.span)

    def aug_value(self, cur, s):
        """The value `target op= value` stores back: a list changed in place (Python's
        list.__iadd__ / __imul__ return the list itself), else `cur op value`."""
        from ember.frontend.exprs import AUG_INPLACE

        if isinstance(cur.type, T.ListType) and s.op in AUG_INPLACE:
            self.list_inplace(cur, s)
            return cur
        return self.binop(s.op, cur, self.value(s.value), s, (s.target, s.value), aug=True)

    def list_inplace(self, cur, s):
        """`xs += ys` extends and `xs *= n` repeats the list in place (aliases see it)."""
        if s.op == "*":
            n = self.value(s.value)
            if isinstance(n.type, ErrorType):
                return
            if n.type not in (T.I64, T.BOOL):
                self.error(f"can't multiply a list by a value of type {show(n.type)}",
                           s.value.span)
                return
            self.b.kernel("list.imul", [cur, self.to_int(n, s.value)], T.NONE, self.loc(s))
            return
        other = self.value(s.value, expected=cur.type)
        other = self.coerce(other, cur.type, s.value.span)
        self.b.kernel("list.extend", [cur, other], T.NONE, self.loc(s))

    def s_Delete(self, s):
        for t in s.targets:
            if isinstance(t, (A.Tuple, A.List)):
                self.s_Delete(A.Delete(s.span, list(t.elts)))
                continue
            if isinstance(t, A.Name):
                self.delete_name(t)
                continue
            if not isinstance(t, A.Subscript):
                self.unsupported("'del' removes variables, list and dict items (del x, "
                                 "del xs[i], del d[k])", t.span)
                continue
            obj = self.value(t.value)
            if isinstance(t.slice, A.Slice):
                self.delete_slice(obj, t)
                continue
            idx = self.value(t.slice)
            if isinstance(obj.type, T.ListType):
                self.call_op_name("list.delitem", [obj, self.to_int(idx, t.slice)], t)
            elif isinstance(obj.type, T.DictType):
                self.call_op_name("dict.delitem", [obj, idx], t)
            elif not isinstance(obj.type, ErrorType):
                self.error(f"cannot delete items of {show(obj.type)}", t.span)

    def delete_name(self, t) -> None:
        """`del x`: x is unbound from here on (reading it is a compile error, or, for a
        variable kept after a loop, an UnboundLocalError when the read runs)."""
        var = self.env.get(t.id)
        if var is None or (not var.defined and var.bound is None):
            self.read_var(t.id, t.span) if var is not None else self.error(
                f"name '{t.id}' is not defined", t.span, NameResolutionError)
            return
        if var.bound is not None and var.slot is not None:
            self.read_var(t.id, t.span)  # raises if it is unbound, as CPython's del does
            self.b.create("var.set", [var.bound, self.b.const(False, T.BOOL, self.loc(t))],
                          loc=self.loc(t))
            return
        var = self.env.mut(t.id)
        var.value, var.defined, var.narrowed = None, False, None
        var.why = f"it was deleted by 'del {t.id}' on line {t.span.line}"

    def delete_slice(self, obj, t):
        """`del xs[a:b:c]` removes the items of the slice from the list."""
        if isinstance(obj.type, ErrorType):
            return
        if not isinstance(obj.type, T.ListType):
            self.error(f"cannot delete a slice of {show(obj.type)}", t.span)
            return
        bounds = [self.optional_int(x) for x in (t.slice.lower, t.slice.upper, t.slice.step)]
        self.b.kernel("list.delslice", [obj] + bounds, T.NONE, self.loc(t))

    def s_Assert(self, s):
        cond = self.condition(s.test)
        then_r, else_r = Region(), Region()
        op = self.b.create("if", [cond.value], [], regions=[then_r, else_r], loc=self.loc(s))
        with self.at(then_r.block):
            self.b.yield_([], self.loc(s))
        before = self.env
        self.env = before.copy()
        with self.at(else_r.block):
            msg = self.exc_argument(s.msg) if s.msg is not None else None
            self.raise_new("AssertionError", msg, s)
        self.env = before
        self.apply_facts_after(cond.true)
        del op

    def s_Raise(self, s):
        if s.cause is not None and s.exc is not None:
            self.raise_cause = self.cause_value(s.cause)
            try:
                self.raise_expr(s.exc, s)
            finally:
                self.raise_cause = None
            return
        if s.cause is not None:
            from ember.errors import ParseError
            self.error("invalid syntax: 'raise from' needs an exception", s.span, ParseError)
            return
        if s.exc is None:
            if not self.handlers or self.handlers[-1] is None:
                self.error("bare 'raise' is only allowed inside an except block", s.span)
                return
            self.b.create("raise", [self.handlers[-1]], loc=self.loc(s))
            self.terminated = True
            return
        self.raise_expr(s.exc, s)

    def raise_expr(self, exc, s):
        from ember.frontend.meta import MException

        if isinstance(exc, A.Call):
            callee = self.expr(exc.func)
            if isinstance(callee, MException):
                self.emit_raise(self.exception_from_call(exc, callee), self.loc(s))
                return
        v = self.expr(exc)
        if isinstance(v, MException):
            self.raise_new(v.name, None, s)
            return
        v = self.as_value(v, exc)
        if v.type != T.EXC and not isinstance(v.type, ErrorType):
            self.error(f"can only raise exceptions, not {show(v.type)}", exc.span)
            return
        self.emit_raise(v, self.loc(s))

    def exception_from_call(self, call, callee):
        """The exception `Cls(args)` makes (a raise's operand or a `from` cause)."""
        if getattr(callee, "init", None) is not None and callee.init.node is not None:
            from ember.frontend.exc_fields import construct
            return construct(self, callee, call)
        if call.keywords:
            self.unsupported("exceptions take no keyword arguments", call.span)
        if len(call.args) > 1:  # str(e) is the str of the args' tuple, as in Python
            items = [self.value(a) for a in call.args]
            msg = self.b.create("tuple.new", items, [T.TupleType(tuple(
                v.type for v in items))], loc=self.loc(call)).result
            return self.new_exception(callee.name, msg, call, several=True)
        msg = self.exc_argument(call.args[0]) if call.args else None
        return self.new_exception(callee.name, msg, call)

    def emit_raise(self, e, loc) -> None:
        """raise e (with the cause of `raise e from c`, when there is one)."""
        cause = getattr(self, "raise_cause", None)
        if cause is not None:
            e = self.b.kernel("exc.set_cause", [e, cause], T.EXC, loc)
        self.b.create("raise", [e], loc=loc)
        self.terminated = True

    def cause_value(self, node):
        """The cause of `raise X from Y`: an exception, an exception class (made with no
        argument) or None (the context is suppressed)."""
        from ember.frontend.meta import MException

        if isinstance(node, A.Call):
            callee = self.expr(node.func)
            if isinstance(callee, MException):
                return self.coerce(self.exception_from_call(node, callee),
                                   T.OptionalType(T.EXC), None)
        v = self.expr(node)
        loc = self.loc(node)
        if isinstance(v, MException):
            new = "exc.new" if ":" not in v.name else "exc.new_user"
            return self.b.kernel(new, [self.b.const(v.name, T.STR, loc), self.coerce(
                self.b.const(None, T.NONE, loc), T.OptionalType(T.STR), None)], T.EXC, loc)
        v = self.as_value(v, node)
        if isinstance(v.type, ErrorType):
            return None
        if v.type == T.NONE:
            return self.coerce(v, T.OptionalType(T.EXC), None)
        if v.type != T.EXC:
            self.error(f"exception causes must derive from BaseException, not {show(v.type)}",
                       node.span)
            return None
        return self.coerce(v, T.OptionalType(T.EXC), None)

    def raise_new(self, kind: str, arg, node) -> None:
        """Raise a new `kind` exception with no argument (arg None) or one argument value
        (kept as it is, as Python does: KeyError(3) shows 3, ValueError(3.5) 3.5)."""
        self.emit_raise(self.new_exception(kind, arg, node), self.loc(node))

    def new_exception(self, kind: str, arg, node, several=False):
        from ember.ops import EXCEPTION_CLASSES

        loc = self.loc(node)
        k = self.b.const(kind, T.STR, loc)
        new = "exc.new" if kind in EXCEPTION_CLASSES else "exc.new_user"
        if several:  # the items of the tuple arg are the exception's arguments
            return self.b.kernel(f"{new}_args", [k, arg], T.EXC, loc)
        if arg is None or arg.type == T.STR:
            arg = self.b.const(None, T.NONE, loc) if arg is None else arg
            e = self.b.kernel(new, [k, self.coerce(arg, T.OptionalType(T.STR), None)],
                              T.EXC, loc)
        else:
            e = self.b.kernel(f"{new}_arg", [k, arg], T.EXC, loc)
        return e

    def exc_argument(self, node):
        """The argument of an exception or the message of an assert: any value."""
        return self.value(node)

    def s_Global(self, s):
        """`global X` in a function that only reads X: X is the module-level value, as
        without the declaration. Assigning a global is not supported."""
        params = {a.arg for a in self.node.args}
        for n in s.names:
            if n in params:
                from ember.errors import ParseError
                self.error(f"name '{n}' is parameter and global", s.span, ParseError)
                return
        assigned = [n for n in s.names if n in self.assigned(self.node.body) and
                    n not in self.globals_written]
        if assigned:
            self.unsupported(f"assigning the module-level variable '{assigned[0]}' ('global') "
                             "is supported for a literal int, float, str, bool or complex "
                             "constant of a CompilationUnit's source only (ember.script reads "
                             "a Python module's values at compile time); pass the value as an "
                             "argument and return the new one", s.span)

    def s_Nonlocal(self, s):
        if not self.info.nested:
            from ember.errors import ParseError
            self.error("nonlocal declaration not allowed at module level or in a top-level "
                       "function", s.span, ParseError)
        # Otherwise the names are this function's boxed variables (FunctionEmitter.boxed).

    def s_Import(self, s):
        """`import math` (or `from typing import List`) inside a function: the modules a
        CompilationUnit knows (math, cmath, torch and its nn/functional, typing, enum,
        collections' OrderedDict) bind their names from here on, as at module level."""
        from ember.frontend.compiler import _from_import
        from ember.frontend.meta import MModule
        if isinstance(s, A.ImportFrom):
            if s.level or (s.module or "") not in _LOCAL_IMPORTS:
                return self.unsupported(f"importing from '{s.module}' inside a function is not "
                                        "supported; import at module level", s.span)
            for name, asname in s.names:
                if name == "*":
                    return self.unsupported("'from ... import *' is not supported", s.span)
                self.local_metas[asname or name] = _from_import(s.module, name)
            return
        for dotted, asname in s.names:
            if dotted not in _LOCAL_IMPORTS:
                return self.unsupported(f"importing '{dotted}' inside a function is not "
                                        "supported; import at module level", s.span)
            key = asname or dotted.split(".")[0]
            self.local_metas[key] = MModule(dotted if asname else dotted.split(".")[0])

    s_ImportFrom = s_Import

    def s_ClassDef(self, s):
        self.unsupported("classes must be defined at module level", s.span)

    def s_With(self, s):
        for k, (ctx, target) in enumerate(s.items):
            if self.is_no_grad(ctx) and target is None:
                continue  # a no-op: there is no autograd
            rest = s.items[k + 1:]
            return self.with_object(ctx, target, [A.With(s.span, rest, s.body)] if rest
                                    else s.body, s)
        self.emit_body(s.body)

    def with_object(self, ctx, target, body, s):
        """`with m as v: body` for an object whose class defines __enter__ and __exit__:
        v = m.__enter__(), then body, then m.__exit__(None, None, None) however body ends
        (a try/finally; exceptions are not passed to __exit__ and not suppressed by it)."""
        from ember.frontend.builtins_ import hidden_name
        from ember.frontend.env import Var

        mgr = self.value(ctx)
        t = mgr.type
        if not (isinstance(t, T.ClassType) and self.class_defines(t, "__enter__") and
                self.class_defines(t, "__exit__")):
            if not isinstance(t, ErrorType):
                self.error(f"'with' needs torch.no_grad() or an object whose class defines "
                           f"__enter__ and __exit__, not {show(t)}", ctx.span)
            if target is not None:
                self.assign(target, mgr, ctx.span)
            self.emit_body(body)  # checked all the same
            return
        sp = ctx.span
        name = hidden_name("with")
        self.env.set(name, Var(t, mgr, True))
        enter = A.Call(sp, A.Attribute(sp, A.Name(sp, name), "__enter__"), [], [])
        self.stmt(A.Assign(sp, [target], enter) if target is not None else A.Expr(sp, enter))
        done = A.Expr(sp, A.Call(sp, A.Attribute(sp, A.Name(sp, name), "__exit__"),
                                 [A.Constant(sp, None)] * 3, []))
        self.stmt(A.Try(s.span, body, [], [], [done]))

    def is_no_grad(self, ctx) -> bool:
        from ember.frontend.meta import MModule

        if isinstance(ctx, A.Call) and not ctx.args and isinstance(ctx.func, A.Attribute) \
                and ctx.func.attr in ("no_grad", "inference_mode", "enable_grad"):
            base = self.expr(ctx.func.value)
            return isinstance(base, MModule) and base.name == "torch" or is_poison(base)
        return False

    # -- assignment targets ---------------------------------------------------------------------
    def assign(self, target, value, span) -> None:
        if isinstance(target, A.Name):
            self.write_var(target.id, value, target.span)
        elif isinstance(target, (A.Tuple, A.List)):
            self.unpack(target, value, span)
        elif isinstance(target, A.Subscript):
            probe = self.append_probe
            if probe is not None and probe[0] == ("dict", getattr(target.value, "id", None)) \
                    and not probe[1] and not isinstance(target.slice, A.Slice):
                probe[1].append((self.value(target.slice).type, value.type))
            obj = self.value(target.value)
            self.subscript_set(obj, self.index_value(target.slice, obj), value, target)
        elif isinstance(target, A.Attribute):
            owner = self.expr(target.value)
            if isinstance(owner, MClass):  # Class.NAME = ...: class attributes are constants
                return self.error(f"cannot assign '{target.attr}' of the class "
                                  f"'{owner.info.node.name}' (class attributes and Enum "
                                  "members are constants)", target.span)
            self.attribute_set(self.as_value(owner, target.value), target, value)
        elif isinstance(target, A.Starred):
            self.unsupported("starred assignment targets are not supported", target.span)
        else:
            from ember.errors import ParseError
            what = "a function call" if isinstance(target, A.Call) else "this expression"
            self.error(f"invalid syntax: cannot assign to {what}", target.span, ParseError)

    def unpack(self, target, value, span) -> None:
        n = len(target.elts)
        t = value.type
        if isinstance(t, ErrorType):
            for e in target.elts:
                self.assign(e, value, span)
            return
        if any(isinstance(e, A.Starred) for e in target.elts):
            self.unpack_starred(target, value, span)
            return
        if isinstance(t, T.TupleType):
            if len(t.elems) != n:
                self.error(f"cannot unpack a tuple of {len(t.elems)} values into {n} targets",
                           target.span)
                return
            for i, e in enumerate(target.elts):
                item = self.b.create("tuple.get", [value], [t.elems[i]], {"index": i},
                                     loc=self.loc(e)).result
                self.assign(e, item, span)
            return
        if isinstance(t, T.ListType):
            self.unpack_list(target, value, span)
            return
        if isinstance(t, T.ClassType) and self.is_namedtuple(t):
            decl = self.c.module.classes[t.name]
            if len(decl.fields) != n:
                self.error(f"cannot unpack {t.name} ({len(decl.fields)} fields) into {n} "
                           "targets", target.span)
                return
            for (fname, ftype), e in zip(decl.fields, target.elts):
                self.assign(e, self.b.create("obj.get", [value], [ftype], {"field": fname},
                                             loc=self.loc(e)).result, span)
            return
        self.error(f"cannot unpack a value of type {show(t)}", target.span)

    def unpack_starred(self, target, value, span) -> None:
        """`a, *rest, z = xs`: the starred target gets a new list of the middle items."""
        stars = [i for i, e in enumerate(target.elts) if isinstance(e, A.Starred)]
        if len(stars) > 1:
            from ember.errors import ParseError
            self.error("multiple starred expressions in assignment", target.span, ParseError)
            return
        k = stars[0]
        before, after = target.elts[:k], target.elts[k + 1:]
        t = value.type
        if isinstance(t, T.TupleType):
            self.unpack_starred_tuple(target, value, k, span)
        elif isinstance(t, T.ListType):
            loc = self.loc(target)
            n = len(target.elts) - 1
            self.b.kernel("list.check_unpack_star", [value, self.b.const(n, T.I64, loc)],
                          T.NONE, loc)
            def get(i):
                return self.b.kernel("list.getitem", [value, self.b.const(i, T.I64, loc)],
                                     t.elem, loc)
            heads = [get(i) for i in range(len(before))]
            tails = [get(i - len(after)) for i in range(len(after))]
            opt = T.OptionalType(T.I64)
            lo = self.coerce(self.b.const(len(before), T.I64, loc), opt, None)
            hi = self.coerce(self.b.const(-len(after) if after else None,
                                          T.I64 if after else T.NONE, loc), opt, None)
            step = self.coerce(self.b.const(None, T.NONE, loc), opt, None)
            rest = self.b.kernel("list.slice", [value, lo, hi, step], t, loc)
            if isinstance(t, T.VarTupleType):  # a, *rest = t: rest is a list
                rest = self.b.kernel("list.copy", [rest], T.as_list(t), loc)
            for e, v in zip(before + [target.elts[k].value] + after, heads + [rest] + tails):
                self.assign(e, v, span)
        else:
            self.error(f"cannot unpack a value of type {show(t)} into a starred target",
                       target.span)

    def unpack_starred_tuple(self, target, value, k, span) -> None:
        t = value.type
        n_after = len(target.elts) - k - 1
        if len(t.elems) < len(target.elts) - 1:
            self.error(f"cannot unpack a tuple of {len(t.elems)} values into at least "
                       f"{len(target.elts) - 1} targets", target.span)
            return
        def item(i):
            return self.b.create("tuple.get", [value], [t.elems[i]], {"index": i},
                                 loc=self.loc(target)).result
        mid = list(range(k, len(t.elems) - n_after))
        star = target.elts[k]
        items = [item(i) for i in mid]
        elem = None
        for v in items:
            elem = v.type if elem is None else T.join(elem, v.type)
            if elem is None:
                self.error(f"the starred target '*{getattr(star.value, 'id', '...')}' would "
                           f"hold values of different types ({', '.join(show(v.type) for v in items)})"
                           "; ember lists hold one type", star.span)
                return
        if elem is None:
            prior = self.env.get(star.value.id) if isinstance(star.value, A.Name) else None
            elem = prior.type.elem if prior is not None and \
                isinstance(prior.type, T.ListType) else T.TENSOR
        items = [self.coerce(v, elem, star.span, "list element") for v in items]
        rest = self.b.create("list.new", items, [T.ListType(elem)], loc=self.loc(star)).result
        for i, e in enumerate(target.elts[:k]):
            self.assign(e, item(i), span)
        self.assign(star.value, rest, span)
        for j, e in enumerate(target.elts[k + 1:]):
            self.assign(e, item(len(t.elems) - n_after + j), span)

    def is_namedtuple(self, t) -> bool:
        decl = self.c.module.classes.get(t.name)
        return decl is not None and decl.kind == "namedtuple"

    def unpack_list(self, target, value, span):
        n = len(target.elts)
        loc = self.loc(target)
        self.b.kernel("list.check_unpack", [value, self.b.const(n, T.I64, loc)], T.NONE, loc)
        for i, e in enumerate(target.elts):
            idx = self.b.const(i, T.I64, loc)
            item = self.b.kernel("list.getitem", [value, idx], value.type.elem, loc)
            self.assign(e, item, span)

    # -- if ---------------------------------------------------------------------------------------
    def s_Match(self, s):
        from ember.frontend.patterns import s_Match
        s_Match(self, s)

    def s_If(self, s):
        cond = self.condition(s.test)
        if cond.const is not None:
            # Decided by types (`self.downsample is not None` with a None submodule) or by
            # constants: only the branch that can run is compiled, as in TorchScript.
            dead = s.orelse if cond.const else s.body
            if cond.check_dead and _may_bind(dead):
                self.probe(lambda: self.emit_body(dead), [])
            self.emit_body(s.body if cond.const else s.orelse)
            self.static_exit = self.terminated
            return
        self.emit_if(cond, lambda: self.emit_body(s.body), lambda: self.emit_body(s.orelse),
                     s)

    def emit_if(self, cond, then_fn, else_fn, node) -> None:
        """Emit an if op whose regions run then_fn/else_fn; merge the branch environments."""
        loc = self.loc(node.kw_span if getattr(node, "kw_span", None) else node)
        before = self.env
        branches = []
        for fn, facts in ((then_fn, cond.true), (else_fn, cond.false)):
            self.env = before.copy()
            block = Block()
            with self.at(block):
                self.apply_facts(facts)
                fn()
                exited = self.terminated
                self.materialize_slots(block)
                branches.append((block, None if exited else self.env))
        self.env = before
        self.merge_into_if(cond.value, branches, loc, before)
        self.keep_outer_narrowed(before)

    def merge_into_if(self, cond_value, branches, loc, before) -> None:
        live = [(b, e) for b, e in branches if e is not None]
        conflicts = {}
        names, types = self.merge_plan([e for _, e in live], before, conflicts)
        for block, env in branches:
            if env is not None:
                with self.at(block):
                    self.b.yield_([self.current_value(env, n, t) for n, t in zip(names, types)],
                                  loc)
        op = self.b.create("if", [cond_value], types, regions=[Region(b) for b, _ in branches],
                           loc=loc, names=ir_names(names))
        if not live:
            self.b.create("unreachable", [], loc=loc)
            self.terminated = True
            return
        self.env = self.merged_env([e for _, e in live], names, op.results, before, conflicts)

    def merge_plan(self, envs, before, conflicts):
        """Names (re)bound inside a branch and defined on every live path, with their types;
        `conflicts` gets each name whose paths' types have nothing in common (its error)."""
        if not envs:
            return [], []
        names, types = [], []
        keys = set(envs[0].names())
        for e in envs[1:]:
            keys &= e.names()
        changed = changed_names(envs, before)
        for name in sorted(keys & changed):
            vars_ = [e.get(name) for e in envs]
            if any(v.slot is not None for v in vars_) or not all(v.defined for v in vars_):
                continue
            values = [v.value for v in vars_]
            old = before.get(name)
            if old is not None and old.defined and old.slot is None and \
                    all(v is old.value for v in values):
                continue
            t = self.merged_type(name, vars_, conflicts)
            if t is not None:
                names.append(name)
                types.append(t)
        return names, types

    def merged_type(self, name, vars_, conflicts):
        types = [v.value.type for v in vars_]
        if all(t == types[0] for t in types):
            return types[0]
        static = vars_[0].type
        if any(isinstance(t, ErrorType) for t in types):
            return static if static is not None and \
                not isinstance(static, ErrorType) else ERROR
        if all(isinstance(t, T.TensorType) for t in types):
            result = types[0]
            for t in types[1:]:
                result = T.tensor_join(result, t)  # keep what all branches agree on
            return result if static is None or T.is_subtype(result, static) else static
        if all(v.type == static for v in vars_) and all(T.is_subtype(t, static) for t in types):
            return static
        result = types[0]
        for t in types[1:]:
            j = T.join(result, t)
            if j is None:  # an error where it is read after the join (TorchScript's rule)
                conflicts[name] = TypeConflict(
                    f"variable '{name}' is {show(result)} on one path and {show(t)} on "
                    "another; give it one type (annotate it)")
                return None
            result = j
        return result

    def merged_env(self, envs, names, results, before, conflicts):
        """The environment after a join: per name, defined only if defined on every path."""
        changed = changed_names(envs, before)
        out = envs[0].copy()
        merged = set(names)
        for e in envs[1:]:
            changed |= out.vars.keys() - e.vars.keys()
        for name in changed:
            var = out.get(name)
            if var is None:
                continue
            vs = [var] + [e.get(name) for e in envs[1:]]
            if any(v is None for v in vs) or not all(v.defined for v in vs) or (
                    var.slot is None and name not in merged and
                    any(v.value is not var.value for v in vs)):
                if var.defined or var.value is not None:
                    var = out.mut(name)
                    var.defined, var.value = False, None
        for e in envs[1:]:
            for name in e.names():
                if out.get(name) is None:
                    v = e.get(name).copy()
                    v.defined, v.value = False, None
                    out.set(name, v)
        for name, why in conflicts.items():
            if out.get(name) is not None:
                out.mut(name).why = why
        for name, r in zip(names, results):
            var = out.mut(name)
            var.value, var.defined = r, True
            if not var.declared and not T.is_subtype(r.type, var.type):
                var.type = r.type
        block = self.b.block
        for name in list(out.names()):  # first bound in a branch: a variable of this block now
            var = out.get(name)
            if before.get(name) is None and var.frame is not None and var.frame is not block:
                out.mut(name).frame = block
        return out

    def current_value(self, env, name, want):
        var = env.get(name)
        v = var.value
        if v is None:
            from ember.frontend.function import Poison
            return Poison()
        return self.coerce(v, want, None) if v.type != want else v

    def materialize_slots(self, block) -> None:
        """Slots created in `block` are read back into SSA values before the block ends."""
        if self.terminated:
            return
        for name, var in list(self.env.vars.items()):
            if var.slot is None:
                continue
            slot = slot_value(var.slot)
            if slot is None and _slot_block(var.slot) is block:
                var = self.env.mut(name)
                var.slot, var.value, var.defined = None, None, False
            elif slot is not None and slot.owner.parent is block:
                var = self.env.mut(name)
                var.slot = None
                if var.defined:
                    var.value = self.b.create("var.get", [slot], [var.type],
                                              names=ir_names([name])).result
                else:
                    var.value = None

    # -- try -------------------------------------------------------------------------------------
    def s_Try(self, s):
        self.forget_narrowed()
        loc = self.loc(s)
        names = self.assigned([s])
        self.type_none_vars(names, lambda: self.probe_try(s, names))
        promoted = self.promote_to_slots(names, s)
        handlers = []
        for h in s.handlers:
            handlers.append(self.handler_classes(h))
        regions, envs = [], []
        before = self.env
        body_env = self.emit_region_env(before, s.body, regions, envs, None)
        for h, classes in zip(s.handlers, handlers):
            self.emit_handler(before, h, regions, envs)
        if s.orelse:
            self.env = self.else_env(before, body_env, regions[0].block)
            block = Block()
            with self.at(block):
                self.emit_body(s.orelse)
                if not self.terminated:
                    self.b.yield_([], loc)
                envs[0] = None if self.terminated else self.env
            regions.append(Region(block))
        fin_env = None
        self._finally_exits = False
        if s.finalbody:
            fin_env = self.emit_region_env(before, s.finalbody, regions, [], None)
            self._finally_exits = fin_env is None
        attrs = {"handlers": handlers, "has_else": bool(s.orelse),
                 "has_finally": bool(s.finalbody)}
        self.b.create("try", [], [], attrs, regions, loc=loc)
        self.env = before
        self.after_try(envs, fin_env)
        self.forget_narrowed()  # refined reads inside the statement's regions end with it
        if not self.terminated:
            self.unslot(promoted)

    def else_env(self, before, body_env, body):
        """The env an else clause starts in: the body's end state, less the values the
        body region computed, which the else region cannot reach. Assigned variables live
        in slots, so those are only refinements (`if v is None:` in the body merges v): the
        else clause reads such a variable as it was before the try, unrefined."""
        if body_env is None:
            return before.copy()
        env = body_env.copy()
        for name in changed_names([body_env], before):
            var = env.get(name)
            if var is None:
                continue
            if var.narrowed is not None and defined_in(var.narrowed, body):
                env.mut(name).narrowed = None
            if var.value is not None and defined_in(var.value, body):
                old = before.get(name)
                if old is None:
                    env.pop(name)
                else:
                    env.set(name, old)
        return env

    def unslot(self, names) -> None:
        """After the try statement its slots are read back once: from here on the
        variables are SSA values again (so `if v is None:` can refine them)."""
        for name in names:
            var = self.env.get(name)
            if var is None or var.slot is None or isinstance(var.slot, PendingSlot):
                continue
            var = self.env.mut(name)
            slot, var.slot = var.slot, None
            var.value = self.b.create("var.get", [slot], [var.type],
                                      names=ir_names([name])).result if var.defined else None

    def probe_try(self, s, names):
        """The types `names` get on the paths of a try statement (for type_none_vars)."""
        base = self.env
        seen: dict = {}
        groups = [s.body + s.orelse] + [h.body for h in s.handlers] + [s.finalbody]
        for stmts in groups:
            self.env = base.copy()
            self.scratch()
            self.emit_body(stmts)
            if self.terminated:
                continue
            for n in names:
                var = self.env.get(n)
                if var is not None and var.defined and var.value is not None:
                    t = var.value.type
                    seen[n] = (T.join(seen[n], t) or t) if n in seen else t
        self.env = base
        return seen

    def emit_region_env(self, before, stmts, regions, envs, exc_value):
        self.env = before.copy()
        block = Block()
        with self.at(block):
            self.emit_body(stmts)
            exited = self.terminated
            if not exited:
                self.b.yield_([], self.b.loc)
            env = None if exited else self.env
        regions.append(Region(block))
        envs.append(env)
        return env

    def emit_handler(self, before, h, regions, envs):
        self.env = before.copy()
        block = Block([T.EXC], ["e" if h.name is None else h.name])
        exc = block.args[0]
        with self.at(block):
            self.handlers.append(exc)
            if h.name:
                self.env.set(h.name, Var(T.EXC, exc, True))
            self.emit_body(h.body)
            self.handlers.pop()
            exited = self.terminated
            if not exited:
                self.b.yield_([], self.b.loc)
            if h.name and not exited:
                self.env.pop(h.name)
            env = None if exited else self.env
        regions.append(Region(block))
        envs.append(env)

    def handler_classes(self, h) -> list:
        from ember.frontend.meta import MException

        if h.type is None:
            return ["BaseException"]  # a bare except catches everything, as in Python
        nodes = h.type.elts if isinstance(h.type, A.Tuple) else [h.type]
        names = []
        for n in nodes:
            m = self.expr(n)
            if isinstance(m, MException):
                names.append(m.name)
            else:
                self.error("except clauses name builtin exception classes "
                           "(ValueError, KeyError, ...)", n.span)
        if "BaseException" in names:
            return ["BaseException"]
        if "Exception" in names:
            return []  # the IR's "every Exception"
        return names

    def promote_to_slots(self, names, s) -> list[str]:
        """Variables assigned inside a try statement live in mutable slots until its end
        (the names newly given a slot are returned)."""
        promoted = []
        for name in names:
            if name in self.boxed:
                continue  # lives in its box
            var = self.env.get(name)
            if var is None or (not var.defined and var.slot is None):
                declared = var is not None and var.declared
                self.env.set(name, Var(var.type if declared else None, None, False,
                                       slot=PendingSlot(self.b.block), declared=declared,
                                       span=s.span))
                promoted.append(name)
                continue
            if var.slot is not None:
                continue
            op = self.b.insert(VarNewOp([var.value], [T.VarType(var.type)], None, (),
                                        self.loc(s), ir_names([name])))
            var = self.env.mut(name)
            var.slot, var.value = op.result, None
            promoted.append(name)
        return promoted

    def after_try(self, envs, fin_env) -> None:
        live = [e for e in envs if e is not None]
        if not live or fin_env is None and self._finally_exits:
            self.b.create("unreachable", [])
            self.terminated = True
            return
        for name in list(self.env.names()):
            var = self.env.get(name)
            if var.slot is None and var.type is not None:
                continue  # not assigned in the try statement: unchanged
            var = self.env.mut(name)
            defined = all(e.get(name) is not None and e.get(name).defined for e in live)
            fin_var = fin_env.get(name) if fin_env is not None else None
            if fin_var is not None and fin_var.defined:
                defined = True
            var.defined = defined if var.slot is not None else var.defined
            types = [e.get(name).type for e in live if e.get(name) is not None]
            if var.type is None and types:
                var.type = types[0]
            if isinstance(var.slot, PendingSlot):
                var.slot = var.slot.value
                if var.slot is None:
                    var.defined = False

    # -- nested functions -------------------------------------------------------------------------
    def s_FunctionDef(self, s):
        from ember.frontend.closures import define_nested

        define_nested(self, s)


class TypeConflict(str):
    """Why a variable is unusable after a join: its branches gave it types with no common
    one. Reading it there is the error (a TypeCheckError), not the join itself."""


def _slot_block(slot):
    return slot.block if isinstance(slot, PendingSlot) else slot.owner.parent


__all__ = ["StmtMixin", "ERROR", "UnsupportedError", "TryOp"]


_BINDS_NOTHING = (A.Return, A.Raise, A.Pass, A.Expr, A.Assert)


def _may_bind(stmts) -> bool:
    """Whether type-checking stmts could tell the types of the function's variables (by
    binding or declaring one): not for a list of returns, raises and expressions without
    `:=`, such as a dead `return self._padded(x)`."""
    return any(not isinstance(st, _BINDS_NOTHING) or
               any(isinstance(n, A.NamedExpr) for n in A.walk(st)) for st in stmts)

