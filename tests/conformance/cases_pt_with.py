"""PyTorch's test_with.py checkScript cases, ported as CompilationUnit sources: a script
class with __enter__/__exit__ (as the tests define it), used with and without `as`, with
early returns, break, continue, serial, nested and combined with-items, and exceptions
raised in the body (both engines must run __exit__ and raise)."""

import torch

torch.manual_seed(0)

CONTEXT = '''
class Context(object):
    def __init__(self, start: int):
        self.count = torch.tensor([start], dtype=torch.double)

    def __enter__(self):
        self.count.add_(0.3)
        return self.count

    def __exit__(self, type: Any, value: Any, tb: Any):
        self.count.sub_(0.3)
'''

X = torch.randn(2, 2)
L = [2, 0, 1, 3, 0, 2]

_BODIES_AS = [
    ('''
def test_basic(x):
    # type: (Tensor) -> Tensor
    c = Context(1)
    with c as mult:
        y = x + mult
    y *= c.count
    return y
''', "x"),
    ('''
def test_pass(x):
    # type: (Tensor) -> Tensor
    c = Context(1)
    with c as mult:
        pass
    x *= c.count
    return x
''', "x"),
    ('''
def test_early_return(x, start):
    # type: (Tensor, int) -> Tensor
    c = Context(start)
    with c as mult:
        y = x + mult
        return y
    x = y + y
    return x
''', "xs"),
    ('''
def test_conditional_early_return(x, start):
    # type: (Tensor, int) -> Tensor
    c = Context(start)
    with c as mult:
        y = x + mult
        if mult > 0:
            return y
    x = y + y
    return x
''', "xs"),
    ('''
def test_break(x, start, l):
    # type: (Tensor, int, List[int]) -> Tensor
    c = Context(start)
    with c as mult:
        for a in l:
            if a == 0:
                break
            x += a * mult
    return x + c.count
''', "xsl"),
    ('''
def test_continue(x, start, l):
    # type: (Tensor, int, List[int]) -> Tensor
    c = Context(start)
    with c as mult:
        for a in l:
            if a == 0:
                continue
            x += a * mult
    return x + c.count
''', "xsl"),
    ('''
def test_serial(x):
    # type: (Tensor) -> Tensor
    c = Context(1)
    with c as mult:
        y = x + mult
    with c as mult:
        y *= mult
    return y
''', "x"),
    ('''
def test_nested(x):
    # type: (Tensor) -> Tensor
    c = Context(1)
    with c as m:
        with c as n:
            y = x + n
        y *= m
    return y
''', "x"),
    ('''
def test_combined(x):
    # type: (Tensor) -> Tensor
    c = Context(1)
    d = Context(2)
    with c as m, d as n:
        y = x + (m + n)
    return y
''', "x"),
]


def _as_to_no_as(src):
    """The test_with_no_as variant of a body: `with c:` and c.count for the bound name."""
    for bound in ("mult", "m", "n"):
        src = src.replace(f" as {bound}", "")
    src = src.replace("with c, d", "with c, d")
    return (src.replace("x + mult", "x + c.count").replace("y *= mult", "y *= c.count")
            .replace("a * mult", "a * c.count").replace("if mult > 0", "if c.count > 0")
            .replace("x + n", "x + c.count").replace("y *= m\n", "y *= c.count\n")
            .replace("(m + n)", "(c.count + d.count)"))


def _args(kind):
    return {"x": [(X.clone(),)], "xs": [(X.clone(), 2), (X.clone(), -2)],
            "xsl": [(X.clone(), 2, list(L)), (X.clone(), 1, [0, 1])]}[kind]


CASES = []
for body, kind in _BODIES_AS:
    CASES.append((CONTEXT + body, _args(kind)))
    CASES.append((CONTEXT + _as_to_no_as(body), _args(kind)))

_RAISES = '''
def method_that_raises():
    # type: () -> Tensor
    raise Exception()
'''
CASES += [
    (CONTEXT + _RAISES + '''
def test_exception(x, start):
    # type: (Tensor, int) -> Tensor
    c = Context(start)
    with c as _:
        x += method_that_raises()
    return x
''', [(torch.randn(2), 1)]),
    (CONTEXT + _RAISES + '''
def test_exception_nested(x, start):
    # type: (Tensor, int) -> Tensor
    c = Context(start)
    with c as _:
        with c as _:
            x += method_that_raises()
    return x
''', [(torch.randn(2), 1)]),
    (CONTEXT + _RAISES + '''
def with_that_raises(c):
    # type: (Context) -> Tensor
    a = torch.tensor([1])
    with c as _:
        a += method_that_raises()
    return a

def test_exception_fn_call(x, start):
    # type: (Tensor, int) -> Tensor
    c = Context(start)
    with c as _:
        x += with_that_raises(c)
    return x
''', [(torch.randn(2), 1)]),
    (CONTEXT + _RAISES + '''
def test_exit_ran(x, start):
    # type: (Tensor, int) -> Tensor
    c = Context(start)
    try:
        with c as _:
            with c as _:
                x += method_that_raises()
    except Exception:
        pass
    return c.count
''', [(torch.randn(2), 1)]),
    ('''
def test_no_grad(x, y):
    # type: (Tensor, Tensor) -> Tensor
    with torch.no_grad():
        w = x + y
    return w
''', [(torch.ones(5, 5), torch.ones(5, 5))]),
]
