"""PyTorch's test_jit.py checkScript cases from its last classes (TestFuser's and
TestAutodiffSubgraphSlicing's functions, TestAsync's fork / wait, TestClassType,
TestCustomOperators), not ported before, as CompilationUnit sources with the tests' inputs
(CPU tensors where the tests use CUDA; the graph checks are left out)."""

import itertools

import torch

torch.manual_seed(0)


def _lstm_inputs():
    x = torch.randn(3, 10)
    hx = torch.randn(3, 20)
    cx = torch.randn(3, 20)
    cell = torch.nn.LSTMCell(10, 20)
    return (x, hx, cx) + tuple(p.detach() for p in cell.parameters())


def _milstm_inputs():
    x = torch.randn(3, 10)
    hx = torch.randn(3, 20)
    cx = torch.randn(3, 20)
    ih = torch.randn(80, 10)
    hh = torch.randn(80, 20)
    return (x, hx, cx, ih, hh, torch.randn(80), torch.randn(80), torch.randn(80), torch.randn(80))


_CHUNK_INPUTS = [(torch.randn(4, 4, 4),), (torch.randn(12, 8, 16),),
                 (torch.randn(12, 8, 16).transpose(1, 2),)]
_A = torch.randn(4, 4)
_B = torch.randn(4, 4)
_NAN = torch.tensor(float('nan'))
_X44 = (torch.randn(4, 4), torch.randn(4, 4))
_BOX1 = torch.randn(5, 4)
_BOX2 = torch.randn(5, 4)
_IOU = (_BOX1[:, 0].unsqueeze(1), _BOX1[:, 1].unsqueeze(1), _BOX1[:, 2].unsqueeze(1),
        _BOX1[:, 3].unsqueeze(1), _BOX2[:, 0].unsqueeze(0), _BOX2[:, 1].unsqueeze(0),
        _BOX2[:, 2].unsqueeze(0), _BOX2[:, 3].unsqueeze(0))

_GATES = '''
def cell(x, hx, cx, w_ih, w_hh, b_ih, b_hh):
    gates = {} + {} + {} + {}
    ingate, forgetgate, cellgate, outgate = gates.chunk(4, 1)
    return ingate * forgetgate * cellgate * outgate
'''
_CHOICES = ['x.mm(w_ih.t())', 'hx.mm(w_hh.t())', 'b_ih', 'b_hh']

CASES = [
    # TestFuser
    ('''
def func(x):
    return x.abs() * 2
''', [(torch.randn(5),)]),
    ('''
def fn(x):
    a, b, c = x.chunk(3, 1)
    return a * b + c
''', [(torch.randn(10, 6),)]),
    ('''
def chunk_4_0(x):
    x0, x1, x2, x3 = x.chunk(4, 0)
    return x0 + x1 + x2 + x3
''', _CHUNK_INPUTS),
    ('''
def chunk_4_1(x):
    x0, x1, x2, x3 = x.chunk(4, 1)
    return x0 + x1 + x2 + x3
''', _CHUNK_INPUTS),
    ('''
def chunk_4_last(x):
    x0, x1, x2, x3 = x.chunk(4, 2)
    return x0 + x1 + x2 + x3
''', _CHUNK_INPUTS),
    ('''
def f(x, y):
    z1, z2 = (x + y).chunk(2, dim=1)
    return z1 * z2
''', [_X44, (_X44[0].t(), _X44[1])]),
    ('''
def func1(x):
    z = x * x
    z0, z1 = z.chunk(2)
    return z0 * z1
''', [(torch.tensor([1.1, 1.2]),)]),
    ('''
def func2(x):
    z = x * x * x
    z0, z1 = z.chunk(2)
    return z0 * z1
''', [(torch.tensor([1.1, 1.2]),)]),
    ('''
def fn(s, x, y, z):
    z1, z2 = z.chunk(2, 2)
    x1, x2, x3 = x.chunk(3, 1)
    y1, y2 = y.chunk(2, 0)
    return s + x1 + x2 + x3 + y1 + y2 + z1 + z2
''', [(torch.randn(5, 2, 3), torch.randn(5, 6, 3), torch.randn(10, 2, 3),
       torch.randn(5, 2, 6))]),
    ('''
def func2(a, b):
    return torch.clamp(a + b, min=0, max=2)
''', [(_A, _B), (_A, _NAN)]),
    ('''
def funcInf(a, b):
    return torch.clamp(a + b, min=0, max=float('inf'))
''', [(_A, _B), (_A, _NAN)]),
    ('''
def funcOptMin(a, b):
    return torch.clamp(a + b, max=2)
''', [(_A, _B), (_A, _NAN)]),
    ('''
def funcOptMax(a, b):
    return torch.clamp(a + b, min=0)
''', [(_A, _B), (_A, _NAN)]),
    ('''
def f(x, y):
    mask = (x == 0).type_as(x)
    z = x * mask + y
    mask = (x != 0).type_as(x)
    z = z * mask + y
    return z
''', [_X44, (torch.tensor([[0., 1.], [2., 0.]]), torch.ones(2, 2))]),
    ('''
def fn_test_comparison_gt_lt(x, y):
    mask = (x > 0).type_as(x)
    z = x * mask + y
    mask = (x < 0).type_as(x)
    z = z * mask + y
    return z
''', [_X44]),
    ('''
def f(x, y):
    mask = (x >= 0).type_as(x)
    z = x * mask + y
    mask = (x <= 0).type_as(x)
    z = z * mask + y
    return z
''', [_X44]),
    ('''
def foo(hx, cx):
    return torch.cat((hx + cx, hx * cx))
''', [(torch.randn(3, 20), torch.randn(3, 20))]),
    ('''
def fn(x, y, z):
    x1 = x + y
    y1 = x - y
    w = torch.cat([x1, y1])
    return w + z
''', [(torch.randn(2, 2), torch.randn(2, 2), torch.randn(4, 2))]),
    ('''
def f(x, y):
    return torch.cat([x + 2 * x + x ** 2, y + 4 * y + y ** 3], dim=0)
''', [(torch.randn(2, 4), torch.randn(1, 4))]),
    ('''
def fn_test_exp(x, y):
    return (x + .5 * y).exp()
''', [_X44]),
    ('''
def fn_test_relu(x, y):
    return F.relu(x + .5 * y)
''', [_X44]),
    ('''
def fn_test_erf(x):
    return F.relu(torch.erf(x) - torch.erfc(x))
''', [(torch.randn(4, 4),)]),
    ('''
def fn_test_small_constant(x, y):
    return (1e-8 * x + 5e-9 * y) * 1e8
''', [_X44]),
    ('''
def f(x):
    return torch.threshold(x, 0, -10) + x + x + x
''', [(torch.tensor([-1, -0.5, 0, 1, 2, 3]),)]),
    ('''
def doit(x, y):
    return torch.sigmoid(torch.tanh(x * (x + y) + x))
''', [(torch.tensor([0.4]), torch.tensor([0.7]))]),
    ('''
def fn(x, y):
    return 2 * x + y
''', [(torch.tensor(0.1), torch.tensor(1.0))]),
    ('''
def should_fuse(x):
    z = 3.
    y = x + z
    return x * y
''', [(torch.randn(2, 2),)]),
    ('''
def should_not_fuse(x, z):
    y = x + int(z)
    return x * y
''', [(torch.randn(2, 2), torch.tensor(3.))]),
    ('''
def f(x, y):
    mask = x > y
    res = torch.where(mask, x, y)
    return mask, res
''', [(torch.randn(4, 4, dtype=torch.double), torch.randn(4, 4, dtype=torch.double))]),
    ('''
def scaleshift(x, scale, shift):
    return x * scale + shift
''', [(torch.randn(4, 4), torch.randn(4), torch.randn(4))]),
    ('''
def f(x, y):
    return torch.sigmoid(x + y)
''', [(torch.randn(5, 5), torch.randn(5, 5))]),
    ('''
def iou(b1x1, b1y1, b1x2, b1y2, b2x1, b2y1, b2x2, b2y2):
    ltx = torch.max(b1x1, b2x1)  # [N,M]
    lty = torch.max(b1y1, b2y1)
    rbx = torch.min(b1x2, b2x2)
    rby = torch.min(b1y2, b2y2)

    w = (rbx - ltx).clamp(min=0, max=float('inf'))  # [N,M]
    h = (rby - lty).clamp(min=0, max=float('inf'))  # [N,M]
    inter = w * h  # [N,M]

    area1 = (b1x2 - b1x1) * (b1y2 - b1y2)  # [N,1]
    area2 = (b2x2 - b2x1) * (b2y2 - b2y2)  # [1,M]
    iou = inter / (area1 + area2 - inter)
    return iou
''', [_IOU]),
    ('''
def fn(x, y):
    return x * y * x * y
''', [_X44]),
    ('''
def not_fusible(x):
    return x

def fn(x, y, z):
    x_out = x * x * x * x * x  # fusion: lambda x. x * x * x * x * x
    y_out = y * y * y * y * y
    z_out = z * z * z * z * z
    return not_fusible(x_out), not_fusible(y_out), not_fusible(z_out)
''', [(torch.randn(4, 4), torch.randn(4, 4), torch.randn(4, 4))]),
    ('''
def LSTMCellS(x, hx, cx, w_ih, w_hh, b_ih, b_hh):
    gates = x.mm(w_ih.t()) + hx.mm(w_hh.t()) + b_ih + b_hh
    ingate, forgetgate, cellgate, outgate = gates.chunk(4, 1)
    ingate = torch.sigmoid(ingate)
    forgetgate = torch.sigmoid(forgetgate)
    cellgate = torch.tanh(cellgate)
    outgate = torch.sigmoid(outgate)
    cy = (forgetgate * cx) + (ingate * cellgate)
    hy = outgate * torch.tanh(cy)
    return hy, cy
''', [_lstm_inputs()]),
    ('''
def MiLSTMCell(x, hx, cx, w_ih, w_hh, alpha, beta_i, beta_h, bias):
    Wx = x.mm(w_ih.t())
    Uz = hx.mm(w_hh.t())
    # Section 2.1 in https://arxiv.org/pdf/1606.06630.pdf
    gates = alpha * Wx * Uz + beta_i * Wx + beta_h * Uz + bias
    # Same as LSTMCell after this point
    ingate, forgetgate, cellgate, outgate = gates.chunk(4, 1)
    ingate = ingate.sigmoid()
    forgetgate = forgetgate.sigmoid()
    cellgate = cellgate.tanh()
    outgate = outgate.sigmoid()
    cy = (forgetgate * cx) + (ingate * cellgate)
    hy = outgate * cy.tanh()
    return hy, cy
''', [_milstm_inputs()]),
    ('''
def LSTMCellS(x, hx, cx, w_ih, w_hh, b_ih, b_hh):
    gates = x.mm(w_ih.t()) + hx.mm(w_hh.t()) + b_ih + b_hh
    ingate, forgetgate, cellgate, outgate = gates.chunk(4, 1)
    ingate = torch.sigmoid(ingate)
    forgetgate = torch.sigmoid(forgetgate)
    cellgate = torch.tanh(cellgate)
    outgate = torch.sigmoid(outgate)
    cy = (forgetgate * cx) + (ingate * cellgate)
    hy = outgate * torch.tanh(cy)
    return hy, cy

def lstm(x, hx, cx, w_ih, w_hh, b_ih, b_hh):
    for i in range(x.size(0)):
        hx, cx = LSTMCellS(x[i], hx, cx, w_ih, w_hh, b_ih, b_hh)
    return hx
''', [(torch.randn(10, 3, 10),) + _lstm_inputs()[1:]]),
] + [
    (_GATES.format(*p), [_lstm_inputs()])
    for p in list(itertools.permutations(_CHOICES, 4))[::5]
] + [
    # TestAutodiffSubgraphSlicing's functions (the graphs are not compared; the values are)
    ('''
def fn(x, y, z):
    a = x * y
    b = a * z
    return b
''', [(torch.randn(1), torch.randn(1), torch.randn(1))]),
    ('''
def pyfn(a, b):
    return a * b

def fn(w, x, y):
    a = w * x
    b = pyfn(a, y)
    c = a * b
    return c
''', [(torch.randn(1), torch.randn(1), torch.randn(1))]),
    ('''
def pyfn(a, b):
    return a * b

def fn(w, x, y, z):
    a = w * x
    b = pyfn(a, y)
    c = a * z
    return b, c
''', [(torch.randn(1), torch.randn(1), torch.randn(1), torch.randn(1))]),
    ('''
def pyfn(a, b):
    return a * b

def fn(v, w, x, y):
    a = v * w
    b = pyfn(x, y)
    c = b * a
    return a, c
''', [(torch.randn(1), torch.randn(1), torch.randn(1), torch.randn(1))]),
    ('''
def fn(x, y):
    a, b = x.chunk(2)
    c, d = y.chunk(2)
    return a + c, b + d
''', [(torch.randn(2), torch.randn(2))]),
    ('''
def fn(w, x, y):
    a = w * x
    b = a * y
    c = a * b
    return c
''', [(torch.randn(1), torch.randn(1), torch.randn(1))]),
    ('''
def fn(x, k):
    y = x * 1.1
    if bool(k):
        k = k + y
    z = y * k
    return z, k
''', [(torch.randn(1), torch.randn(1)), (torch.randn(1), torch.zeros(1))]),
    ('''
def fn(x, y, z):
    a = x * y
    b = a * z
    c = a + b
    d = c * x
    return d
''', [(torch.randn(1), torch.randn(1), torch.randn(1))]),
    # TestCustomOperators
    ('''
def func(x):
    return torch.ops.aten.relu(x)
''', [(torch.ones(5, 5),), (torch.randn(3, 3),)]),
    # TestAsync
    ('''
def foo(x):
    return torch.neg(x), x

def wait_script(x):
    fut = torch.jit._fork(foo, x)
    y_hat = foo(x)
    y = torch.jit._wait(fut)
    return y, y_hat
''', [(torch.rand(3, 4),)]),
    ('''
def foo(x):
    # type: (Tensor) -> List[Tensor]
    return [torch.neg(x), x.t()]

def bar(x):
    futures = torch.jit.annotate(List[Future[List[Tensor]]], [])
    for _ in range(3):
        future = torch.jit.annotate(
            Future[List[Tensor]],
            torch.jit._fork(foo, x)
        )
        futures.append(future)

    output = torch.jit.annotate(List[List[Tensor]], [])
    for i in range(3):
        output.append(torch.jit._wait(futures[i]))
    return output
''', [(torch.rand(3, 3),)]),
    ('''
def foo(x):
    return torch.neg(x), x

def wait_script(x):
    fut = torch.jit._fork(foo, x)
    y_hat = foo(x)
    y = torch.jit._wait(fut)
    return y, y_hat

def wait_script_nest(x):
    fut = torch.jit._fork(wait_script, x)
    return torch.jit._wait(fut)
''', [(torch.rand(3, 4),)]),
    ('''
def foo(x):
    return torch.neg(x).t() + x

def wait_script(x):
    fut = torch.jit._fork(foo, x)

    # wait twice on the same future
    y1 = torch.jit._wait(fut)
    y2 = torch.jit._wait(fut)
    return y1, y2
''', [(torch.rand(2, 2),)]),
    ('''
def foo1(x):
    return torch.neg(x).t() + x

def foo2(x, y):
    return torch.neg(x).t() + x + torch.neg(y).t()

def foo3(x, y, z):
    return torch.neg(z).t() + y.t() + x

def wait_script(x1, x2, x3):
    f1 = torch.jit._fork(foo1, x1)
    f2 = torch.jit._fork(foo2, x1, x2)
    f3 = torch.jit._fork(foo3, x1, x2, x3)
    f4 = torch.jit._fork(foo1, x2)
    f5 = torch.jit._fork(foo2, x2, x3)

    # ignore some forks
    y1 = torch.jit._wait(f1)
    y2 = torch.jit._wait(f2)
    y3 = torch.jit._wait(f3)

    return y1, y2, y3
''', [(torch.rand(10, 10), torch.rand(10, 10), torch.rand(10, 10))]),
    ('''
def foo(x):
    # error here
    return x.t() + x

def wait_script(x):
    fut = torch.jit._fork(foo, x)
    return torch.jit._wait(fut)
''', [(torch.rand(3, 4),), (torch.rand(3, 3),)]),
    ('''
def fork_body(x):
    return x.neg(), x.neg() + 1

def fn(x):
    fut = torch.jit._fork(fork_body, x)
    vals = torch.jit._wait(fut)
    return vals[0], vals[1], x - 1
''', [(torch.rand(3, 4),)]),
    ('''
def fork_body(x):
    return x + 1, x + 2

def fn(x):
    fut = torch.jit._fork(fork_body, x)
    val = torch.jit._wait(fut)
    return val[1]
''', [(torch.rand(3, 4),)]),
    # TestClassType
    ('''
class FooTest:
    def __init__(self, x):
        self.foo = x

    def getFooTest(self):
        return self.foo

def fn(x):
    foo = FooTest(x)
    return foo.getFooTest()
''', [(torch.ones(2, 3),)]),
    ('''
class FooTest:
    def __init__(self, x):
        self.foo = x

def fn(x):
    foo = FooTest(x)
    return foo.foo
''', [(torch.ones(2, 3),)]),
    ('''
class FooTest:
    def __init__(self, x):
        # type: (int) -> None
        self.foo = x

    def incFooTest(self, y):
        # type: (int) -> None
        self.foo = self.foo + y

def fn(x):
    # type: (int) -> int
    foo = FooTest(x)
    foo.incFooTest(2)
    return foo.foo
''', [(1,)]),
    ('''
class FooTest:
    def __init__(self, x):
        self.attr = x

def fn(foo):
    # type: (FooTest) -> Tensor
    return foo.attr

def fn2(x):
    foo = FooTest(x)
    return fn(foo)
''', [(torch.ones(1),)]),
    ('''
class FooTest:
    def __init__(self, x):
        self.x = x
        self.x = self.get_stuff(x)

    def get_stuff(self, y):
        return self.x + y

def fn(x):
    f = FooTest(x)
    return f.x
''', [(torch.ones(1),)]),
]
