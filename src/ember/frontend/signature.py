"""Function signatures: parameter names, types, defaults and the declared return type.

TorchScript's rules: an unannotated parameter is a Tensor (`self` of a method
is its class); defaults are constants (the Python function's own default
values when it is a real function object, literals otherwise).
"""

from __future__ import annotations

from ember.frontend import ast as A
from ember.frontend.meta import scalar_type_of
from ember.frontend.vartuple import variadic_item
from ember.ir import types as T


from ember.mobile.manifest import REQUIRED  # noqa: E402  (a keyword-only parameter a call must give)

LIST_VARARGS = -1
"""vararg_count of the instance of a *args function called with f(*xs) of a list: its args
is that list's copy (a List[T]: the number of items is known at run time only)."""


def function_signature(em):
    node: A.FunctionDef = em.node
    names, types, defaults = [], [], []
    for cap_name, cap_type in em.captures:
        names.append(cap_name)
        types.append(cap_type)
    py_defaults = _python_defaults(em.info.pyfn)
    for i, arg in enumerate(node.args):
        if arg.kind == "star" and em.info.vararg_count is not None:
            elem = em.ann.resolve(arg.annotation) if arg.annotation is not None else T.TENSOR
            names.append(arg.arg)
            types.append(T.ListType(elem) if em.info.vararg_count == LIST_VARARGS else
                         T.TupleType((elem,) * em.info.vararg_count))
            em.info.vararg = (arg.arg, elem)
            continue
        if arg.kind == "star":
            em.unsupported("a function with *args is compiled where it is called, for the "
                           "number of arguments given there; it cannot be an entry point",
                           arg.span)
            continue
        if arg.kind == "starstar":
            from ember.frontend.kwargs import kwargs_param
            kwargs_param(em, arg, names, types, defaults)
            continue
        names.append(arg.arg)
        any_types = em.info.any_types
        if any_types is not None and arg.arg in any_types:
            types.append(any_types[arg.arg])  # this instance's type for an Any parameter
        elif any_types is None and _is_any_param(em, i, arg):
            what = "Tuple[T, ...]" if variadic_item(arg.annotation) is not None else "Any"
            em.unsupported(f"parameter '{arg.arg}' is annotated with {what}: ember compiles "
                           "such a function where it is called, for the argument types "
                           "given there; it cannot be an entry point", arg.annotation.span)
            types.append(T.NONE)
        else:
            types.append(_param_type(em, i, arg))
        if arg.default is not None:
            defaults.append(_default(em, arg, py_defaults, types[-1]))
        elif defaults and arg.kind == "kwonly":  # def f(a, b=1, *, c): c is still required
            defaults.append(REQUIRED)
        elif defaults:
            em.error("a parameter without a default follows one with a default", arg.span)
    ret = None
    if em.ann.mentions_any(node.returns):
        pass  # `-> Any`: the instance's return type is inferred from its returns
    elif node.returns is not None and not _bare_container(node.returns):
        ret = em.ann.resolve(node.returns)
    if ret is None and em.info.owner is not None and node.name == "__init__":
        ret = T.NONE
    defined_in = getattr(em.info, "defined_in", None)
    if getattr(em.info, "cls_param", None) and defined_in is not None and \
            defined_in.decl is not None and ret == T.ClassType(defined_in.decl.name):
        # `-> "Base"` of a @classmethod making `cls(...)`: in the copy compiled for a
        # subclass, cls is the subclass and so is what it makes
        ret = T.ClassType(em.info.owner.decl.name)
    return names, types, defaults, ret


def _is_any_param(em, i, arg) -> bool:
    if em.info.owner is not None and i > 0 and em.info.node.name == "__exit__":
        return False  # __exit__'s Any parameters take None (with_object)
    if arg.annotation is None and arg.arg in called_params(em.info.node) and \
            not (em.info.owner is not None and i == 0 and not em.info.static):
        return True  # `def apply(fn, x): return fn(x)`: typed by what each call gives
    return em.ann.mentions_any(arg.annotation) or variadic_item(arg.annotation) is not None


def called_params(node) -> set:
    """The unannotated parameters of a function whose body calls one of them (`fn(x)`): a
    function is passed there, not the Tensor an unannotated parameter is otherwise, so
    each call compiles the function for the values it gives (as for `Any` parameters;
    the other unannotated parameters too: `def twice(fn, x)` called with an int)."""
    from ember.frontend.env import walk
    names = {a.arg for a in node.args if a.kind == "normal" and a.annotation is None}
    if not names:
        return set()
    called = any(isinstance(n, A.Call) and isinstance(n.func, A.Name) and n.func.id in names
                 for n in walk(A.Module(node.span, list(node.body))))
    return names if called else set()


def item_params(node) -> set:
    """The unannotated and `Tensor` parameters of a function whose body calls `.item()`:
    TorchScript's `t.item()` is a Scalar, an int for an integer tensor and a float for a
    floating one, which ember types from the tensor's dtype. A call that gives tensors of known dtypes
    compiles the function for them (as for `Any` parameters); a tensor of unknown dtype
    keeps the function's own compilation, where `t.item()` is a float."""
    from ember.frontend.env import walk
    names = {a.arg for a in node.args if a.kind == "normal" and (
        a.annotation is None or isinstance(a.annotation, A.Name) and a.annotation.id == "Tensor"
        or isinstance(a.annotation, A.Attribute) and a.annotation.attr == "Tensor")}
    if not names:
        return set()
    item = any(isinstance(n, A.Call) and isinstance(n.func, A.Attribute) and
               n.func.attr == "item" and not n.args and not n.keywords
               for n in walk(A.Module(node.span, list(node.body))))
    return names if item else set()


def any_params(em_or_c, info) -> list:
    """Names of the parameters of `info` annotated with (something holding) Any, or
    with Tuple[T, ...] (compiled per length, frontend/vartuple.py)."""
    from ember.frontend.annotations import AnnotationResolver  # noqa: F401
    if info.owner is not None and info.node.name == "__exit__":
        return []
    out = []
    called = called_params(info.node)
    skip_self = info.owner is not None and not info.static
    for i, a in enumerate(info.node.args):
        if a.kind == "normal" and a.annotation is not None and \
                (_mentions_any_text(a.annotation) or variadic_item(a.annotation) is not None):
            out.append(a.arg)
        elif a.kind == "normal" and a.arg in called and not (skip_self and i == 0):
            out.append(a.arg)
    return out


def _mentions_any_text(node) -> bool:
    from ember.frontend.env import walk
    return any((isinstance(n, A.Name) and n.id == "Any") or
               (isinstance(n, A.Attribute) and n.attr == "Any") for n in walk(node))


def _bare_container(node) -> bool:
    """`-> tuple`, `-> list`, `-> dict` without element types, and `-> Tuple[T, ...]` (a
    tuple of any length: the one returned has a fixed one): infer the return type."""
    if isinstance(node, A.Subscript) and isinstance(node.slice, A.Tuple) and \
            len(node.slice.elts) == 2 and isinstance(node.slice.elts[1], A.Constant) and \
            node.slice.elts[1].value is ... and \
            (getattr(node.value, "id", None) or getattr(node.value, "attr", None)) in \
            ("Tuple", "tuple"):
        return True
    return isinstance(node, A.Name) and node.id in ("tuple", "list", "dict")


def _param_type(em, i, arg):
    owner = em.info.owner
    if owner is not None and i > 0 and em.info.node.name == "__exit__" and \
            (arg.annotation is None or isinstance(arg.annotation, A.Name) and
             arg.annotation.id == "Any"):
        return T.NONE  # `with` calls __exit__(None, None, None) (stmts.with_object)
    if arg.annotation is not None:
        return em.ann.resolve(arg.annotation)
    if i == 0 and owner is not None and not em.info.static:
        return T.ClassType(owner.decl.name)
    return T.TENSOR


def _python_defaults(pyfn) -> dict:
    if pyfn is None or not pyfn.__defaults__:
        return {}
    code = pyfn.__code__
    names = code.co_varnames[:code.co_argcount]
    return dict(zip(names[len(names) - len(pyfn.__defaults__):], pyfn.__defaults__))


def _default(em, arg, py_defaults, want):
    from ember.frontend.enums import member_default
    member = member_default(em, arg.default)
    if member is not None:
        if member.type != want:
            em.error(f"default value {member.shown} does not match the parameter type",
                     arg.default.span)
        return member
    if arg.arg in py_defaults:
        value = py_defaults[arg.arg]
    else:
        value = _literal(arg.default)
    t = scalar_type_of(value) if not isinstance(value, tuple) else None
    if t is None:
        em.unsupported("a default value must be a constant int, float, complex, str, bool or "
                       "None",
                       arg.default.span)
        return None
    if want == T.F64 and t in (T.I64, T.BOOL):
        value = float(value)
    elif want == T.C128 and t in (T.I64, T.BOOL, T.F64):
        value = complex(value)
    elif want == T.I64 and t == T.BOOL:
        value = int(value)
    elif not (t == want or T.is_subtype(t, want)):
        em.error(f"default value {value!r} does not match the parameter type", arg.default.span)
    return value


def _literal(node):
    if isinstance(node, A.Constant):
        return node.value
    if isinstance(node, A.UnaryOp) and node.op == "-" and isinstance(node.operand, A.Constant):
        return -node.operand.value
    if isinstance(node, A.BinOp) and node.op in ("+", "-"):  # a complex literal: 1 - 2j
        a, b = _literal(node.left), _literal(node.right)
        if all(type(x) in (int, float, complex) for x in (a, b)) and complex in map(type, (a, b)):
            return a + b if node.op == "+" else a - b
    return object()
