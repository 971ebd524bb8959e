"""Compare ember's AST with Python's own `ast` (the oracle for the parser's structure)."""

import ast as pyast

from ember.frontend import ast as A

_OPS = {
    pyast.Add: "+", pyast.Sub: "-", pyast.Mult: "*", pyast.Div: "/", pyast.FloorDiv: "//",
    pyast.Mod: "%", pyast.Pow: "**", pyast.MatMult: "@", pyast.LShift: "<<",
    pyast.RShift: ">>", pyast.BitAnd: "&", pyast.BitOr: "|", pyast.BitXor: "^",
    pyast.USub: "-", pyast.UAdd: "+", pyast.Invert: "~", pyast.Not: "not", pyast.And: "and",
    pyast.Or: "or", pyast.Eq: "==", pyast.NotEq: "!=", pyast.Lt: "<", pyast.LtE: "<=",
    pyast.Gt: ">", pyast.GtE: ">=", pyast.In: "in", pyast.NotIn: "not in", pyast.Is: "is",
    pyast.IsNot: "is not",
}


def py_shape(node):
    """A nested tuple describing a Python ast node in ember's vocabulary."""
    if isinstance(node, list):
        return [py_shape(x) for x in node]
    if not isinstance(node, pyast.AST):
        return node
    t = type(node)
    if t in _OPS:
        return _OPS[t]
    if t is pyast.Expr:
        return ("Expr", py_shape(node.value))
    if t is pyast.Constant:
        return ("Constant", node.value)
    if t is pyast.Name:
        return ("Name", node.id)
    if t is pyast.BinOp:
        return ("BinOp", py_shape(node.left), py_shape(node.op), py_shape(node.right))
    if t is pyast.UnaryOp:
        return ("UnaryOp", py_shape(node.op), py_shape(node.operand))
    if t is pyast.BoolOp:
        return ("BoolOp", py_shape(node.op), py_shape(node.values))
    if t is pyast.Compare:
        return ("Compare", py_shape(node.left), py_shape(node.ops), py_shape(node.comparators))
    if t is pyast.Call:
        return ("Call", py_shape(node.func), py_shape(node.args),
                [(k.arg, py_shape(k.value)) for k in node.keywords])
    if t is pyast.Attribute:
        return ("Attribute", py_shape(node.value), node.attr)
    if t is pyast.Subscript:
        return ("Subscript", py_shape(node.value), py_shape(node.slice))
    if t is pyast.Slice:
        return ("Slice", py_shape(node.lower), py_shape(node.upper), py_shape(node.step))
    if t in (pyast.List, pyast.Tuple, pyast.Set):
        return (t.__name__, py_shape(node.elts))
    if t is pyast.Dict:
        return ("Dict", py_shape(node.keys), py_shape(node.values))
    if t is pyast.IfExp:
        return ("IfExp", py_shape(node.test), py_shape(node.body), py_shape(node.orelse))
    if t in (pyast.ListComp, pyast.SetComp, pyast.GeneratorExp):
        return (t.__name__, py_shape(node.elt), py_shape(node.generators))
    if t is pyast.DictComp:
        return ("DictComp", py_shape(node.key), py_shape(node.value), py_shape(node.generators))
    if t is pyast.comprehension:
        return ("Comprehension", py_shape(node.target), py_shape(node.iter), py_shape(node.ifs))
    if t is pyast.JoinedStr:
        # Python 3.12.0-3.12.x end some format specs with an empty Constant piece.
        return ("JoinedStr", py_shape([v for v in node.values
                                       if not (type(v) is pyast.Constant and v.value == "")]))
    if t is pyast.FormattedValue:
        conv = None if node.conversion == -1 else chr(node.conversion)
        return ("FormattedValue", py_shape(node.value), conv, py_shape(node.format_spec))
    if t is pyast.Lambda:
        return ("Lambda", [a.arg for a in node.args.args], py_shape(node.body))
    if t is pyast.Starred:
        return ("Starred", py_shape(node.value))
    if t is pyast.NamedExpr:
        return ("NamedExpr", py_shape(node.target), py_shape(node.value))
    return (t.__name__,) + tuple(py_shape(getattr(node, f)) for f in _STMT_FIELDS.get(t, ()))


_STMT_FIELDS = {
    pyast.Assign: ("targets", "value"), pyast.AugAssign: ("target", "op", "value"),
    pyast.AnnAssign: ("target", "annotation", "value"), pyast.Return: ("value",),
    pyast.If: ("test", "body", "orelse"), pyast.While: ("test", "body", "orelse"),
    pyast.For: ("target", "iter", "body", "orelse"), pyast.Pass: (), pyast.Break: (),
    pyast.Continue: (), pyast.Raise: ("exc", "cause"), pyast.Assert: ("test", "msg"),
    pyast.Delete: ("targets",),
    pyast.Try: ("body", "handlers", "orelse", "finalbody"),
    pyast.ExceptHandler: ("type", "name", "body"),
}


def em_shape(node):
    """The same description for an ember AST node."""
    if isinstance(node, list):
        return [em_shape(x) for x in node]
    if not isinstance(node, A.Node):
        return node
    t = type(node).__name__
    if t == "Expr":
        return ("Expr", em_shape(node.value))
    if t == "Constant":
        return ("Constant", node.value)
    if t == "Name":
        return ("Name", node.id)
    if t == "BinOp":
        return ("BinOp", em_shape(node.left), node.op, em_shape(node.right))
    if t == "UnaryOp":
        return ("UnaryOp", node.op, em_shape(node.operand))
    if t == "BoolOp":
        return ("BoolOp", node.op, em_shape(node.values))
    if t == "Compare":
        return ("Compare", em_shape(node.left), node.ops, em_shape(node.comparators))
    if t == "Call":
        return ("Call", em_shape(node.func), em_shape(node.args),
                [(k.arg, em_shape(k.value)) for k in node.keywords])
    if t == "Attribute":
        return ("Attribute", em_shape(node.value), node.attr)
    if t == "Subscript":
        return ("Subscript", em_shape(node.value), em_shape(node.slice))
    if t == "Slice":
        return ("Slice", em_shape(node.lower), em_shape(node.upper), em_shape(node.step))
    if t in ("List", "Tuple", "Set"):
        return (t, em_shape(node.elts))
    if t == "Dict":
        return ("Dict", em_shape(node.keys), em_shape(node.values))
    if t == "IfExp":
        return ("IfExp", em_shape(node.test), em_shape(node.body), em_shape(node.orelse))
    if t in ("ListComp", "SetComp", "GeneratorExp"):
        return (t, em_shape(node.elt), em_shape(node.generators))
    if t == "DictComp":
        return (t, em_shape(node.key), em_shape(node.value), em_shape(node.generators))
    if t == "Comprehension":
        return (t, em_shape(node.target), em_shape(node.iter), em_shape(node.ifs))
    if t == "JoinedStr":
        return (t, em_shape(node.values))
    if t == "FormattedValue":
        return (t, em_shape(node.value), node.conversion, em_shape(node.format_spec))
    if t == "Lambda":
        return (t, [a.arg for a in node.args], em_shape(node.body))
    if t == "Starred":
        return (t, em_shape(node.value))
    if t == "NamedExpr":
        return (t, em_shape(node.target), em_shape(node.value))
    fields = _EM_FIELDS.get(t, ())
    return (t,) + tuple(em_shape(getattr(node, f)) for f in fields)


_EM_FIELDS = {k.__name__: v for k, v in _STMT_FIELDS.items()}
