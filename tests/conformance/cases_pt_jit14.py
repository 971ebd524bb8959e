"""PyTorch's test_jit.py method tests (TestJitGeneratedAutograd over
common_methods_invocations.method_tests): each entry's CompilationUnit sources as
create_script_fn writes them, `def the_method(i0, ...): return i0.NAME(...)` and, where torch
has the function, `return torch.NAME(i0, ...)`, run on the entry's inputs (double tensors;
the random helper matrices are made here). Left out: the magic methods (not scripted
there), resize_ / resize_as_ (shape changes in place), symeig and solve (gone from torch),
and the in-place comparison forms (eq_, ...), whose method form only runs in place."""

import math

import torch

torch.manual_seed(0)

S, M, L = 5, 10, 20
inf = math.inf


class nd:
    """non_differentiable(tensor): passed as it is."""

    def __init__(self, t):
        self.tensor = t


class NoConvert(tuple):
    """dont_convert(value): a constant written as it is."""


def uniform_scalar(offset=0.0):
    return torch.rand(()) + offset


def normal_scalar_clamp(lo, hi):
    return torch.randn(()).clamp(lo, hi)


def prod_zeros(n, dims):
    r = torch.randn(n, n, n)
    r.narrow(dims[0], 0, 1).narrow(dims[1], 1, 1).zero_()
    r.narrow(dims[0], 2, 1).narrow(dims[1], 3, 1).zero_()
    r.narrow(dims[0], 4, 1).narrow(dims[1], 3, 1).zero_()
    return r


def prod_single_zero(n):
    r = torch.randn(n, n)
    r[0, 1] = 0
    return r


def index_variable(shape, hi):
    return torch.randint(0, hi, shape if isinstance(shape, tuple) else (shape,))


def index_perm_variable(n, hi):
    return torch.randperm(hi)[:n]


def gather_variable(shape, index_dim, hi, duplicate=False):
    batch_dim = 1 - index_dim
    index = torch.zeros(*shape, dtype=torch.long)
    for i in range(shape[index_dim]):
        index.select(index_dim, i).copy_(torch.randperm(hi)[:shape[batch_dim]])
    if duplicate:
        index.select(batch_dim, 0).copy_(index.select(batch_dim, 1))
    return index


def mask_not_all_zeros(shape):
    while True:
        r = torch.randn(shape).gt(0)
        if r.sum() > 0:
            return r


def fullrank(n, *batch):
    a = torch.randn(*batch, n, n)
    return a + n * torch.eye(n)


def symmetric(n):
    a = torch.randn(n, n)
    return a + a.t()


def nonzero_det(a, sign=1):
    d = torch.det(a)
    if d * sign < 0:
        a = a.clone()
        a[0] = -a[0]
    return a


_T = [  # (name, self, args, kwargs)
    ('add', (S, S, S), ((S, S, S),)), ('add', (S, S, S), ((S, S),)), ('add', (S, S), ((S, S, S),)),
    ('add', (S, 1, S), ((M, S),)), ('add', (), ((),)), ('add', (S, S, S), ((),)),
    ('add', (), ((S, S, S),)), ('add', (S, S, S), (3.14,)), ('add', (), (3.14,)),
    ('sub', (S, S, S), ((S, S, S),)), ('sub', (S, S, S), ((S, S),)), ('sub', (S, S), ((S, S, S),)),
    ('sub', (S, 1, S), ((M, S),)), ('sub', (S, S, S), ((),)), ('sub', (), ((S, S, S),)),
    ('sub', (S, S, S), (3.14,)), ('sub', (), (3.14,)),
    ('mul', (S, S, S), ((S, S, S),)), ('mul', (), ((),)), ('mul', (S, S, S), ((S, S),)),
    ('mul', (S, S), ((S, S, S),)), ('mul', (S, 1, S), ((M, S),)), ('mul', (S, S, S), ((),)),
    ('mul', (), ((S, S, S),)), ('mul', (S, S, S), (3.14,)), ('mul', (), (3.14,)),
    ('div', (S, S, S), (torch.rand(S, S, S) + 0.1,)), ('div', (S, S, S), (torch.rand(S, S) + 0.1,)),
    ('div', (S, S), (torch.rand(S, S, S) + 0.1,)), ('div', (S, 1, S), (torch.rand(M, S) + 0.1,)),
    ('div', (), (uniform_scalar(0.1),)), ('div', (S, S, S), (uniform_scalar(0.1),)),
    ('div', torch.rand(S, S, S) + 1e-1, (3.14,)), ('div', uniform_scalar(1e-1), (3.14,)),
    ('pow', torch.rand(S, S, S) + 1e-3, (torch.rand(S, S, S) + 0.1,)),
    ('pow', torch.rand(S, S, S) + 1e-3, (torch.rand(1,) + 0.1,)),
    ('pow', torch.rand(1,) + 1e-3, (torch.rand(S, S, S) + 0.1,)),
    ('pow', torch.rand(S, 1, S) + 1e-3, (torch.rand(1, S, 1) + 0.1,)),
    ('pow', uniform_scalar(1e-3), (uniform_scalar(0.1),)),
    ('pow', torch.rand(S, S, S) + 1e-3, (uniform_scalar(0.1),)),
    ('pow', uniform_scalar(1e-3), (torch.rand(S, S, S) + 0.1,)),
    ('pow', torch.rand(S, S, S) + 1e-3, (3.14,)), ('pow', uniform_scalar(1e-3), (3.14,)),
    ('transpose', (1, 2, 3), (1, 2)), ('transpose', (), (0, 0)), ('transpose', (1,), (0, 0)),
    ('transpose', torch.rand(L, L), (0, 1)), ('transpose', torch.rand(S, S, S), (2, 0)),
    ('t', (1, 2), ()),
    ('view', (S, S, S), (S * S, S)), ('view', (S, S, S), ([S * S, S],)), ('view', (S,), (S,)),
    ('view', (), (NoConvert(()),)), ('view', (), (1,)),
    ('reshape', (S, S, S), (S * S, S)), ('reshape', (S, S, S), ([S * S, S],)), ('reshape', (S,), (S,)),
    ('reshape', (), (NoConvert(()),)), ('reshape', (), (1,)),
    ('reshape_as', (S, S, S), (nd(torch.rand(S * S, S)),)), ('reshape_as', (), (nd(torch.tensor(42.)),)),
    ('reshape_as', (), (nd(torch.rand(1, 1)),)),
    ('flip', (S, S, S), ([0],)), ('flip', (S, S, S), ([0, 1, 2],)), ('flip', (S, S, S), ([0, 2],)),
    ('flip', (S, S, S), ([2, 0],)), ('flip', (S, S, S), ([-1],)),
    ('roll', (S, S, S), (0, 0)), ('roll', (S, S, S), (1, 2)), ('roll', (S, S, S), (0, 2,)),
    ('roll', (S, S, S), (2, 0,)), ('roll', (S, S, S), (-1, 0)), ('roll', (S, S, S), (10000, 1)),
    ('roll', (S, S, S), (2,)), ('roll', (S, S, S), ([1, 2, -1], [0, 1, 2])),
    ('rot90', (S, S, S), (1, [0, 1],)), ('rot90', (S, S, S), (1, [1, 2],)),
    ('rot90', (S, S, S), (1, [1, -1],)), ('rot90', (S, S, S), ()),
    ('view_as', (S, S, S), (nd(torch.rand(S * S, S)),)), ('view_as', (), (nd(torch.tensor(5.5)),)),
    ('view_as', (), (nd(torch.rand(1, 1)),)),
    ('expand', (S, 1, 1), (S, S, S)), ('expand', (S, 1), (S, S, S)), ('expand', (1,), (S, S, S)),
    ('expand', (1, S), (1, 1, S)), ('expand', (), (NoConvert(()),)), ('expand', (), (1, 3, 2)),
    ('expand_as', (S, 1, 1), (torch.rand(S, S, S),)),
    ('exp', (S, S, S), ()), ('exp', (), ()), ('expm1', (S, S, S), ()), ('expm1', (), ()),
    ('erf', torch.rand(S, S, S), ()), ('erf', uniform_scalar(), ()),
    ('erfc', torch.rand(S, S, S), ()), ('erfc', uniform_scalar(), ()),
    ('erfinv', torch.rand(S, S, S).clamp(-0.9, 0.9), ()), ('erfinv', normal_scalar_clamp(-0.9, 0.9), ()),
    ('log', torch.rand(S, S, S) + 1e-2, ()), ('log', uniform_scalar(1e-2), ()),
    ('log10', torch.rand(S, S, S) + 1e-2, ()), ('log10', uniform_scalar(1e-2), ()),
    ('log1p', torch.rand(S, S, S), ()), ('log1p', uniform_scalar(), ()),
    ('log2', torch.rand(S, S, S) + 1e-2, ()), ('log2', uniform_scalar(1e-2), ()),
    ('tanh', (S, S, S), ()), ('tanh', (), ()), ('sigmoid', (S, S, S), ()), ('sigmoid', (), ()),
    ('sinh', (S, S, S), ()), ('sinh', (), ()), ('cosh', (S, S, S), ()), ('cosh', (), ()),
    ('abs', (S, S, S), ()), ('abs', (), ()),
    ('clamp', (S, S, S), (0, 1)), ('clamp', (S, S, S), (None, 0.5)), ('clamp', (S, S, S), (0.5, None)),
    ('clamp', (), (0, 1)), ('clamp', (), (None, 0.5)), ('clamp', (), (0.5, None)),
    ('clamp', (S, S), (), {'max': 1}),
    ('sqrt', torch.rand(S, S, S) + 5e-4, ()), ('sqrt', uniform_scalar(5e-4), ()),
    ('sin', (S, S, S), ()), ('sin', (), ()), ('cos', (S, S, S), ()), ('cos', (), ()),
    ('tan', torch.randn(S, S, S).clamp(-1, 1), ()), ('asin', torch.randn(S, S, S).clamp(-0.9, 0.9), ()),
    ('acos', torch.randn(S, S, S).clamp(-0.9, 0.9), ()), ('atan', (S, S, S), ()), ('atan', (), ()),
    ('atan2', (S, S, S), ((S, S, S),)), ('atan2', (), ((),)), ('atan2', (S, S, S), ((S,),)),
    ('atan2', (S,), ((S, S, S),)), ('atan2', (S, 1, S), ((S, S),)),
    ('reciprocal', torch.rand(S, S, S) + 0.1, ()), ('reciprocal', uniform_scalar(0.1), ()),
    ('round', (S, S, S), ()), ('round', (), ()), ('sign', (S, S, S), ()), ('sign', (), ()),
    ('trunc', (S, S, S), ()), ('trunc', (), ()), ('floor', (S, S, S), ()), ('floor', (), ()),
    ('ceil', (S, S, S), ()), ('ceil', (), ()),
    ('rsqrt', torch.rand(S, S, S) + 1e-2, ()), ('rsqrt', uniform_scalar(1e-2), ()),
    ('frac', (S, S, S), ()), ('frac', (), ()),
    ('fmod', (S, S, S), (1.5,)), ('fmod', (), (1.5,)), ('fmod', (S, S, S), (nd(torch.rand(S, S, S) + 1.5),)),
    ('fmod', (S,), (nd(torch.rand(S, S, S) + 1.5),)), ('fmod', (S, S, S), (nd(torch.rand(S) + 1.5),)),
    ('fmod', (S, 1, S), (nd(torch.rand(S, S) + 1.5),)), ('fmod', (), (nd(uniform_scalar(1.5)),)),
    ('fmod', (), (nd(torch.rand(S, S, S) + 1.5),)), ('fmod', (S, S, S), (nd(uniform_scalar(1.5)),)),
    ('remainder', (S, S, S), (1.5,)), ('remainder', (), (1.5,)),
    ('remainder', (S, S, S), (nd(torch.rand(S, S, S) + 1.5),)),
    ('remainder', (S,), (nd(torch.rand(S, S, S) + 1.5),)),
    ('remainder', (S, 1, S), (nd(torch.rand(S, S) + 1.5),)),
    ('remainder', (), (nd(uniform_scalar(1.5)),)), ('remainder', (), (nd(torch.rand(S, S, S) + 1.5),)),
    ('lerp', (S, S, S), ((S, S, S), 0.4)), ('lerp', (S, S, S), ((S,), 0.4)),
    ('lerp', (S,), ((S, S, S), 0.4)), ('lerp', (S, 1, S), ((S, S), 0.4)), ('lerp', (), ((), 0.4)),
    ('lerp', (S, S, S), ((), 0.4)), ('lerp', (), ((S, S, S), 0.4)),
]
for _n in ('max', 'min'):
    _T += [(_n, (S, S, S), ()), (_n, (S, S, S), (1,)), (_n, (S, S, S), (1, True,)), (_n, (), ()),
           (_n, (), (0,)), (_n, (), (0, True,)), (_n, (S, S, S), ((S, S, S),)), (_n, (S, S, S), ((S,),)),
           (_n, (S,), ((S, S, S),)), (_n, (S, 1, S), ((S, S),)), (_n, (), ((),)),
           (_n, (S, S, S), ((),)), (_n, (), ((S, S, S),))]
for _n in ('mean', 'median', 'mode', 'sum', 'prod'):
    _T += [(_n, (S, S, S), ()), (_n, (S, S, S), (1,)), (_n, (S, S, S), (1, True,)), (_n, (), ()),
           (_n, (), (0,)), (_n, (), (0, True,))]
_T += [
    ('kthvalue', (S, S, S), (2,)), ('kthvalue', (), (1,)), ('kthvalue', (S, S, S), (2, 1,)),
    ('kthvalue', (), (1, 0,)), ('kthvalue', (S, S, S), (2, 1, True,)), ('kthvalue', (), (1, 0, True)),
    ('kthvalue', (S,), (2, 0,)), ('kthvalue', (S,), (2, 0, True,)),
    ('sum', (S, S, S), ([1, 2],)), ('sum', (S, S, S), ([1, 2], True,)),
    ('prod', prod_zeros(S, [0, 1]), ()), ('prod', prod_zeros(S, [0, 2]), ()),
    ('prod', prod_zeros(S, [1, 2]), ()), ('prod', prod_zeros(S, [0, 1]), (1,)),
    ('prod', prod_zeros(S, [0, 2]), (1,)), ('prod', prod_zeros(S, [1, 2]), (1,)),
    ('prod', prod_zeros(S, [0, 1]), (1, True)), ('prod', prod_single_zero(S), ()),
    ('prod', torch.tensor(0.), ()), ('prod', torch.tensor(0.), (0,)), ('prod', torch.tensor(0.), (0, True,)),
]
for _n in ('var', 'std'):
    _T += [(_n, (S, S, S), ()), (_n, (S, S, S), (1,)), (_n, (S, S, S), (1, True, True)),
           (_n, (S,), (0,)), (_n, (S,), (0, True, True))]
_T += [
    ('renorm', (S, S, S), (2, 1, 0.5)), ('renorm', (S, S, S), (1, 2, 3)), ('renorm', (S, S, S), (inf, 2, 0.5)),
    ('repeat', (S,), (2,)), ('repeat', (), (2, 3)), ('repeat', (2, 2), (3, 2)), ('repeat', (2, 2), (1, 3, 1, 2)),
    ('cumsum', (S, S, S), (0,)), ('cumsum', (S, S, S), (1,)), ('cumsum', (S, S, S), (1,), {'dtype': 'torch.float64'}),
    ('cumsum', (), (0,)), ('cumprod', (S, S, S), (0,)), ('cumprod', (S, S, S), (1,)), ('cumprod', (), (0,)),
    ('cumprod', torch.tensor(0.), (0,)), ('cumprod', prod_zeros(S, [0, 1]), (1,)),
    ('cumprod', prod_zeros(S, [0, 2]), (1,)), ('cumprod', prod_zeros(S, [1, 2]), (1,)),
    ('cumprod', prod_zeros(S, [1, 2]), (1,), {'dtype': 'torch.float64'}),
    ('unfold', (), (0, 1, 1)), ('unfold', (S, S, S, S), (1, 3, 1)), ('unfold', (S, S, S), (2, 3, 2)),
    ('addmm', (S, M), ((S, S), (S, M))), ('addmm', (1,), ((S, S), (S, M))),
    ('addmm', (S, M), ((S, S), (S, M)), {'beta': 0.2, 'alpha': 0.6}),
    ('addmm', (1,), ((S, S), (S, M)), {'beta': 0.2, 'alpha': 0.6}), ('addmm', (), ((S, S), (S, M))),
    ('addmm', (), ((S, S), (S, M)), {'beta': 0.2, 'alpha': 0.6}),
    ('addbmm', (S, M), ((S, S, S), (S, S, M)),), ('addbmm', (1,), ((S, S, S), (S, S, M))),
    ('addbmm', (S, M), ((S, S, S), (S, S, M)), {'beta': 0.2, 'alpha': 0.6}),
    ('addbmm', (), ((S, S, S), (S, S, M))),
    ('baddbmm', (S, S, M), ((S, S, S), (S, S, M)),), ('baddbmm', (1,), ((S, S, S), (S, S, M))),
    ('baddbmm', (S, S, M), ((S, S, S), (S, S, M)), {'beta': 0.2, 'alpha': 0.6}),
    ('baddbmm', (), ((S, S, S), (S, S, M))),
    ('addmv', (S,), ((S, M), (M,)),), ('addmv', (1,), ((S, M), (M,))),
    ('addmv', (S,), ((S, M), (M,)), {'beta': 0.2, 'alpha': 0.6}), ('addmv', (), ((S, M), (M,))),
    ('addr', (S, M), ((S,), (M,)),), ('addr', (), ((S,), (M,))),
    ('addr', (S, M), ((S,), (M,)), {'beta': 0.2, 'alpha': 0.6}),
    ('dot', (L,), ((L,),)), ('mm', (S, M), ((M, S),)), ('bmm', (M, S, M), ((M, M, S),)),
    ('mv', (S, M), ((M,),)), ('ger', (S,), ((M,),)),
    ('matmul', (L,), ((L,),)), ('matmul', (S, M), ((M,),)), ('matmul', (M,), ((M, S),)),
    ('matmul', (S, M), ((M, S),)), ('matmul', (S, S, M), ((M,),)), ('matmul', (S, S, M), ((M, S),)),
    ('matmul', (M,), ((S, M, S),)), ('matmul', (S, M), ((S, M, S),)),
    ('matmul', (S, S, M, M), ((S, S, M, S),)), ('matmul', (S, S, M, M), ((M,),)),
    ('matmul', (M,), ((S, S, M, S),)),
    ('matrix_power', (S, S), (2,)), ('matrix_power', (S, S, S), (3,)), ('matrix_power', (S, S, S), (1,)),
    ('matrix_power', (S, S, S), (0,)), ('matrix_power', fullrank(S), (-1,)),
    ('matrix_power', fullrank(S), (-3,)), ('matrix_power', fullrank(S, S), (-2,)),
    ('mvlgamma', torch.empty(S,).uniform_(0.5, 1), (1,)), ('mvlgamma', torch.empty(S,).uniform_(1, 2), (2,)),
    ('mvlgamma', torch.empty(S, S).uniform_(1.5, 3), (3,)), ('mvlgamma', torch.empty(S, S).uniform_(2.5, 5), (5,)),
]
for _n in ('addcmul', 'addcdiv'):
    _T += [(_n, (S, S), ((S, S), (S, S))), (_n, (S, S), ((S, 1), (1, S))), (_n, (1,), ((S, S, 1), (1, S))),
           (_n, (S, S), ((S, S), (S, S)), {'value': 0.5}), (_n, (S, S), ((S, 1), (1, S)), {'value': 0.5}),
           (_n, (1,), ((S, S, 1), (1, S)), {'value': 0.5}), (_n, (), ((), ())), (_n, (S, S), ((), ())),
           (_n, (), ((S, S, 1), (1, S))), (_n, (), ((), ()), {'value': 0.5}),
           (_n, (S, S), ((), ()), {'value': 0.5}), (_n, (), ((S, S, 1), (1, S)), {'value': 0.5})]
_T += [
    ('zero_', (S, S, S), ()), ('zero_', (), ()), ('logsumexp', (S, S), (1,)), ('logsumexp', (), (0,)),
    ('norm', (S, S), ()), ('norm', (S, S), (2,)), ('norm', (S, S), (0,)), ('norm', (S, S), (0.5,)),
    ('norm', (S, S), (1,)), ('norm', (S, S), (3,)), ('norm', (S, S), (inf,)), ('norm', (S, S), (-inf,)),
    ('norm', (S, S), ('fro',)), ('norm', (S, S), ('fro', [0, 1],)), ('norm', (S, S), ('nuc',)),
    ('norm', (S, S), (-1,)), ('norm', (S, S), (-2,)), ('norm', (S, S), (-0.5,)), ('norm', (S, S), (-1.5,)),
    ('norm', (S, S), (-2, 1,)), ('norm', (S, S), (-1, 1,)), ('norm', (S, S), (0, 1,)),
    ('norm', (S, S), (1, 1,)), ('norm', (S, S), (2, 1,)), ('norm', (S, S), (3, 1,)),
    ('norm', (S, S), (inf, 1,)), ('norm', torch.rand(S, S, S) + 5e-2, (1.5,)),
    ('norm', (S, S, S), (2, 1)), ('norm', (S, S, S), (3, 1)), ('norm', torch.rand(S, S, S) + 5e-2, (1.5, 1)),
    ('norm', (S, S, S), (2, 1, True)), ('norm', (S, S, S), (3, 1, True)),
    ('norm', torch.rand(S, S, S) + 5e-2, (1.5, 1, True)), ('norm', (), (2, 0)), ('norm', (), (3, 0)),
    ('norm', (), (2, 0, True)), ('norm', (), (3, 0, True)),
    ('clone', (S, M, S), ()), ('clone', (), ()), ('contiguous', (S, S), ()),
    ('contiguous', torch.randn(S, S).transpose(0, 1), ()),
    ('dist', (S, S, S), ((S, S, S),)), ('dist', (S, S, S), ((S,),)), ('dist', (S,), ((S, S, S),)),
    ('dist', (S, 1, S), ((S, S),)), ('dist', (), ((),)), ('dist', (S, S, S), ((),)),
    ('dist', (), ((S, S, S),)), ('dist', (S, S, S), ((S, S, S), 4)), ('dist', (S, S, S), ((S,), 4)),
    ('dist', (S,), ((S, S, S), 4)), ('dist', (S, 1, S), ((S, S), 4)), ('dist', (), ((), 4)),
    ('dist', (S, S, S), ((), 4)), ('dist', (), ((S, S, S), 4)),
    ('diag', (M, M), ()), ('diag', (3, 5), ()), ('diag', (3, 5), (2,)), ('diag', (3, 5), (-2,)),
    ('diag', (5, 3), ()), ('diag', (5, 3), (2,)), ('diag', (5, 3), (-2,)), ('diag', (M,), ()),
    ('diag', (M, M), (1,)), ('diag', (M, M), (2,)), ('diag_embed', (S, S), ()),
    ('diagonal', (M, M), ()), ('diagonal', (3, 5), ()), ('diagonal', (3, 5), (2,)),
    ('diagonal', (3, 5), (-2,)), ('diagonal', (5, 3), ()), ('diagonal', (5, 3), (2,)),
    ('diagonal', (5, 3), (-2,)), ('diagonal', (M, M), (1,)), ('diagonal', (M, M), (2,)),
    ('diagonal', (M, M, M), (1, 1, 2)), ('diagonal', (M, M, M), (2, 0, 1)), ('diagonal', (M, M, M), (-2, 0, 1)),
    ('tril', (M, M), ()), ('tril', (M, M), (2,)), ('tril', (S, M, M), ()), ('tril', (S, M, M), (2,)),
    ('tril', (3, 3, S, S), ()), ('triu', (M, M), ()), ('triu', (M, M), (2,)), ('triu', (S, M, M), ()),
    ('triu', (S, M, M), (2,)), ('triu', (3, 3, S, S), ()), ('trace', (M, M), ()),
    ('cross', (S, 3), ((S, 3),)), ('cross', (S, 3, S), ((S, 3, S), 1)),
    ('index_select', (S, S, S), (0, index_variable(2, S))),
    ('index_select', (), (0, torch.tensor([0], dtype=torch.int64))),
    ('index_select', (), (0, torch.tensor(0, dtype=torch.int64))),
    ('index_add', (S, S), (0, index_variable(2, S), (2, S))),
    ('index_add', (), (0, torch.tensor([0], dtype=torch.int64), (1,))),
    ('index_add', (), (0, torch.tensor(0, dtype=torch.int64), ())),
    ('index_copy', (S, S), (0, index_perm_variable(2, S), (2, S))),
    ('index_copy', (), (0, torch.tensor([0], dtype=torch.int64), (1,))),
    ('index_copy', (), (0, torch.tensor(0, dtype=torch.int64), ())),
    ('index_fill', (S, S), (0, index_variable(2, S), 2)),
    ('index_fill', (S, S), (0, index_variable(2, S), ())),
    ('index_fill', (S, S), (0, torch.tensor(0, dtype=torch.int64), 2)),
    ('index_fill', (), (0, torch.tensor([0], dtype=torch.int64), 2)),
    ('index_fill', (), (0, torch.tensor(0, dtype=torch.int64), 2)),
    ('inverse', fullrank(S), ()), ('inverse', fullrank(S, 2, 3), ()),
    ('det', (S, S), ()), ('det', (1, 1), ()), ('det', symmetric(S), ()), ('det', fullrank(S), ()),
    ('logdet', nonzero_det(torch.randn(S, S), 1), ()), ('logdet', nonzero_det(torch.randn(1, 1), 1), ()),
    ('logdet', nonzero_det(fullrank(S), 1), ()),
    ('slogdet', nonzero_det(torch.randn(1, 1), 1), ()), ('slogdet', nonzero_det(torch.randn(1, 1), -1), ()),
    ('slogdet', nonzero_det(torch.randn(S, S), 1), ()), ('slogdet', nonzero_det(torch.randn(S, S), -1), ()),
    ('slogdet', fullrank(S), ()),
    ('fill_', (S, S, S), (1,)), ('fill_', (), (1,)), ('fill_', (S, S, S), ((),)),
    ('permute', (1, 2, 3, 4), (0, 2, 3, 1)), ('permute', (1, 2, 3, 4), (0, -2, -1, 1)),
    ('permute', (), (NoConvert(()),)),
    ('select', (S, S, S), (1, 2)), ('select', (S, S, S), (1, -1)), ('select', (S,), (0, 2)),
    ('narrow', (S, S, S), (1, 2, 2)), ('narrow', (S, S, S), (1, 0, 0)),
    ('squeeze', (S, 1, S, 1), ()), ('squeeze', (1, 1, 1, 1), ()), ('squeeze', (S, 1, S, 1), (1,)),
    ('squeeze', (S, 1, S, 1), (2,)), ('squeeze', (), (0,)),
    ('unsqueeze', (S, S, S), (0,)), ('unsqueeze', (S, S, S), (1,)), ('unsqueeze', (S, S, S), (3,)),
    ('unsqueeze', (), (0,)),
    ('chunk', (S, S, S), (2,)), ('chunk', (S, S, S), (S, 1)),
    ('split', (S, S, S), (2,)), ('split', (S, S, S), (S, 1)), ('split', (S, S, S), ([1, 3, 1],)),
    ('split', (S, S, S), ([2, 1, 2], 2)),
    ('split_with_sizes', (S, S, S), ([1, 3, 1],)), ('split_with_sizes', (S, S, S), ([1, 4, 0],)),
    ('gather', (M, S), (0, gather_variable((S, S), 1, M, True))),
    ('gather', (M, S), (1, gather_variable((M, S // 2), 0, S, True))),
    ('gather', (), (0, torch.tensor([0], dtype=torch.int64))),
    ('gather', (S,), (0, torch.tensor(0, dtype=torch.int64))),
    ('gather', (), (0, torch.tensor(0, dtype=torch.int64))),
    ('scatter', (M, S), (0, gather_variable((S, S), 1, M), (S, S))),
    ('scatter', (M, S), (1, gather_variable((M, S // 2), 0, S), (M, S // 2))),
    ('scatter', (), (0, torch.tensor(0, dtype=torch.int64), ())),
    ('scatter', (), (0, torch.tensor(0, dtype=torch.int64), 2.5)),
    ('scatter_add', (M, S), (0, gather_variable((S, S), 1, M), (S, S))),
    ('scatter_add', (M, S), (1, gather_variable((M, S // 2), 0, S), (M, S // 2))),
    ('scatter_add', (), (0, torch.tensor(0, dtype=torch.int64), ())),
    ('masked_select', (M, M), (mask_not_all_zeros((M, M)),)),
    ('masked_select', (M, M), (mask_not_all_zeros((M,)),)),
    ('masked_select', (M,), (mask_not_all_zeros((M, M)),)),
    ('masked_select', (M, 1, M), (mask_not_all_zeros((M, M)),)),
    ('masked_select', (), (torch.tensor(True),)), ('masked_select', (M, M), (torch.tensor(True),)),
    ('masked_select', (), (mask_not_all_zeros((M, M)),)),
    ('masked_fill', (M, M), (torch.rand(M, M) > 0.5, 10)), ('masked_fill', (M, M), (torch.rand(M, M) > 0.5, ())),
    ('masked_fill', (M, M), (torch.rand(M,) > 0.5, 10)), ('masked_fill', (), (torch.tensor(True), 10)),
    ('masked_fill', (), (torch.tensor(True), ())), ('masked_fill', (M, M), (torch.tensor(False), 10)),
    ('masked_scatter', (M, M), (torch.rand(M, M) > 0.5, (M, M))),
    ('masked_scatter', (M, M), (torch.rand(M,) > 0.5, (M, M))),
    ('masked_scatter', (M, M), (torch.tensor(True), (M, M))),
    ('sort', (S, M, S), ()), ('sort', (S, M, S), (1,)), ('sort', (S, M, S), (1, True)),
    ('sort', (), ()), ('sort', (), (0,)), ('sort', (), (0, True)),
    ('topk', (S, M, S), (3,)), ('topk', (S, M, S), (3, 1)), ('topk', (S, M, S), (3, 1, True)),
    ('topk', (S, M, S), (3, 1, True, True)), ('topk', (), (1,)), ('topk', (), (1, 0)),
    ('topk', (), (1, 0, True)), ('topk', (), (1, 0, True, True)),
    ('take', (S, S, S), (torch.LongTensor([[-3, 2], [20, 2]]),)),
    ('take', (S, S, S), (torch.tensor(0, dtype=torch.int64),)), ('take', (), (torch.LongTensor([0]),)),
    ('take', (), (torch.tensor(0, dtype=torch.int64),)),
    ('where', (M, M), (mask_not_all_zeros((M, M)), (M, M))),
    ('where', (M, 1, M), (mask_not_all_zeros((M, M)), (M, M, 1))),
    ('where', (), (torch.tensor(True), ())), ('where', (M, 1, M), (torch.tensor(True), (M, M, 1))),
    ('where', (), (mask_not_all_zeros((M, M)), ())),
]

_EXCLUDE_FUNCTIONAL = {'addmm', 'addbmm', 'baddbmm', 'addmv', 'addr', 'reshape', 'where',
                       'permute'}  # torch.permute (newer than the test) takes one list
_NO_OUTPLACE_METHOD = {'index_add', 'index_copy', 'index_fill', 'masked_fill', 'masked_scatter',
                       'scatter', 'scatter_add', 'det'}
_NO_METHOD_BY_ARGS = {('clamp', '(None, 0.5)'), ('clamp', '(0.5, None)')}


def _value(a):
    if isinstance(a, nd):
        return a.tensor
    if isinstance(a, tuple) and not isinstance(a, NoConvert) and all(isinstance(d, int) for d in a):
        return torch.randn(*a, dtype=torch.double) if a else torch.randn((), dtype=torch.double)
    if isinstance(a, torch.Tensor):
        return a.double() if a.dtype == torch.float else a.clone()
    return a


def _constant(a):
    if isinstance(a, float) and math.isinf(a):
        return 'math.inf' if a > 0 else '-math.inf'
    if isinstance(a, str):
        return "'{}'".format(a)
    return str(a)


def _cases(name, self_arg, args, kwargs=None):
    inputs = [_value(self_arg)] + [_value(a) for a in args]
    formals, tensors, actuals = [], [], []
    for a in inputs:
        if isinstance(a, torch.Tensor):
            n = 'i{}'.format(len(formals))
            formals.append(n)
            actuals.append(n)
            tensors.append(a)
        else:
            actuals.append(_constant(a))
    kw = ', '.join('{}={}'.format(k, v) for k, v in (kwargs or {}).items())
    out = []
    no_method = name in _NO_OUTPLACE_METHOD or (name, repr(tuple(args))) in _NO_METHOD_BY_ARGS or \
        name == 'where'
    if not no_method:
        out.append(('\ndef the_method({}):\n    return {}.{}({})\n'.format(
            ', '.join(formals), actuals[0], name, ', '.join(actuals[1:] + ([kw] if kw else []))),
            [tuple(tensors)]))
    if hasattr(torch, name) and name not in _EXCLUDE_FUNCTIONAL:
        out.append(('\ndef the_method({}):\n    return torch.{}({})\n'.format(
            ', '.join(formals), name, ', '.join(actuals + ([kw] if kw else []))), [tuple(tensors)]))
    return out


CASES = []
for _e in _T:
    CASES += _cases(*_e)
