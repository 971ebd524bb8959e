"""PyTorch's test_jit.py nn_functional_tests (TestJitGeneratedFunctional): each entry's
CompilationUnit source `def the_method(i0, ...): return torch.nn.functional.NAME(...)`, as
create_script_fn writes it (tensors are parameters, the other arguments constants), run on
the test's inputs. Entries whose result is random (the dropouts, rrelu in training,
gumbel_softmax, fractional_max_pool2d) and ctc_loss (flaky there) are left out."""

import math

import torch

torch.manual_seed(2)

S, M = 5, 10


def _nd(t):
    return t


def _arg(a):
    if isinstance(a, tuple) and all(isinstance(d, int) for d in a):
        return torch.randn(*a, dtype=torch.double) if a else torch.randn((), dtype=torch.double)
    return a


_TESTS = [
    ('conv1d', (S, S, S), ((S, S, S),)),
    ('conv2d', (S, S, S, S), ((S, S, S, S),)),
    ('conv3d', (S, S, S, S, S), ((S, S, S, S, S),)),
    ('conv_transpose1d', (S, S, S), ((S, S, S),)),
    ('conv_transpose2d', (S, S, S, S), ((S, S, S, S),)),
    ('conv_transpose3d', (S, S, S, S, S), ((S, S, S, S, S),)),
    ('conv_tbc', (S, S, S), ((S, S, S), (S,), 2)),
    ('avg_pool1d', (S, S, S), (3,)),
    ('avg_pool2d', (S, S, S, S), (3,)),
    ('avg_pool3d', (S, S, S, S, S), (3,)),
    ('max_pool1d', (S, S, S), (2, 1)),
    ('max_pool1d', (S, S, S), (2, 1, 1, 1, False, True)),
    ('max_pool2d', (S, S, S, S), (2, 1)),
    ('max_pool3d', (S, S, S, S, S), (2, 1)),
    ('max_unpool1d', torch.tensor([[[2., 4]]]), (torch.tensor([[[1, 3]]]), 2, 2, 0)),
    ('max_unpool2d', torch.tensor([[[[2., 4]]]]), (torch.tensor([[[[1, 3]]]]), 2, 2, 0)),
    ('max_unpool3d', torch.tensor([[[[[2., 4]]]]]), (torch.tensor([[[[[1, 3]]]]]), 2, 2, 0)),
    ('lp_pool1d', (S, S, S), (2., 3, 2,)),
    ('lp_pool2d', (S, S, S, S), (2., 3, 2,)),
    ('adaptive_max_pool1d', (S, S, S), (5,)),
    ('adaptive_max_pool2d', (S, S, S, S), ([5, 7],)),
    ('adaptive_max_pool3d', (S, S, S, S, S), ([3, 2, 2],)),
    ('adaptive_avg_pool1d', (S, S, S), (5,)),
    ('adaptive_avg_pool2d', (S, S, S, S), ([5, 7],)),
    ('adaptive_avg_pool3d', (S, S, S, S, S), ([3, 2, 2],)),
    ('threshold', (S, S, S), (0.1, 2.),),
    ('threshold', (S, S, S), (0.1, 2., True)),
    ('relu', (S, S, S), (),),
    ('relu', (S, S, S), (True,)),
    ('glu', (S - 1, S - 1, S - 1), (),),
    ('hardtanh', (S, S, S), (-0.5, 0.5),),
    ('hardtanh', (S, S, S), (-0.5, 0.5, True)),
    ('relu6', (S, S, S), (),),
    ('relu6', (S, S, S), (True,)),
    ('elu', (S, S, S), (0.9,),),
    ('elu', (S, S, S), (0.9, True)),
    ('selu', (S, S, S), (),),
    ('selu', (S, S, S), (True,)),
    ('celu', (S, S, S), (0.9,),),
    ('celu', (S, S, S), (0.9, True)),
    ('leaky_relu', (S, S, S), (0.02,),),
    ('rrelu', (S, S), (0.1, 0.3, False),),
    ('hardshrink', (S, S, S), (0.4,),),
    ('tanhshrink', (S, S, S), (),),
    ('softsign', (S, S, S), (),),
    ('softplus', (S, S, S), (),),
    ('softmin', (S, S, S), (0,),),
    ('softmax', (S, S, S), (0,),),
    ('softmax', (S, S, S), (0, 3, torch.double)),
    ('tanh', (S, S, S), (),),
    ('sigmoid', (S, S, S), (),),
    ('log_softmax', (S, S, S), (0,),),
    ('linear', (S, S), ((M, S),),),
    ('bilinear', (S, S, S), ((S, S, M), torch.zeros(M, S, M, dtype=torch.double),),),
    ('embedding', torch.tensor([[1, 2, 4, 5], [4, 3, 2, 5]]), (torch.rand(6, 3), ),),
    ('embedding_bag', torch.tensor([1, 2, 4, 2]), (torch.rand(5, 3), torch.tensor([0, 4]),),),
    ('batch_norm', (S, S), (torch.randn(S, dtype=torch.double),
                            torch.ones(S, dtype=torch.double), ),),
    ('instance_norm', (S, S, S), (torch.zeros(S, dtype=torch.double),
                                  torch.ones(S, dtype=torch.double)),),
    ('layer_norm', (S, S, S, S), ([5],),),
    ('layer_norm', (S, S, S, S), ([5], (S,))),
    ('layer_norm', (S, S, S, S), ([5], None, (S,))),
    ('layer_norm', (S, S, S, S), ([5], (S,), (S,))),
    ('group_norm', (S, S, S), (1, torch.rand(5, dtype=torch.double),),),
    ('local_response_norm', (S, S, S), (2, ),),
    ('nll_loss', torch.log_softmax(torch.randn(3, 5), dim=0), (torch.tensor([1, 0, 4]),),),
    ('poisson_nll_loss', torch.rand(S, 2), (torch.rand(S, 2),),),
    ('poisson_nll_loss', torch.rand(S, 2), (torch.rand(S, 2), True, True)),
    ('kl_div', torch.log_softmax(torch.randn(S, 10), 1), (torch.softmax(torch.randn(S, 10), 1),),),
    ('cross_entropy', (3, S), (torch.randint(S, (3,), dtype=torch.int64),),),
    ('binary_cross_entropy_with_logits', (3,), (torch.empty(3, dtype=torch.double).random_(2), ),),
    ('smooth_l1_loss', (3, S), (torch.rand(3, S, dtype=torch.double),),),
    ('l1_loss', (3, S), (torch.rand(3, S, dtype=torch.double),),),
    ('mse_loss', (3, S), (torch.rand(3, S, dtype=torch.double),),),
    ('margin_ranking_loss', (3, S), ((3, S), (S,)),),
    ('hinge_embedding_loss', (3, S), (torch.rand(3, S, dtype=torch.double),),),
    ('soft_margin_loss', (3, S), (torch.rand(3, S, dtype=torch.double),),),
    ('multilabel_soft_margin_loss', (3, S), (torch.rand(3, S, dtype=torch.double),),),
    ('cosine_embedding_loss', (S, S), ((S, S), torch.rand(S, dtype=torch.double)),),
    ('pixel_shuffle', (1, 9, 4, 4), (3,),),
    ('affine_grid', (S, 2, 3), ([S, 1, 7, 7],),),
    ('pad', (3, 3, 4, 2), ([1, 1],),),
    ('pairwise_distance', (S, S), ((S, S),),),
    ('pdist', (S, S), (),),
    ('cosine_similarity', (S, S), ((S, S),),),
    ('triplet_margin_loss', (S, S), ((S, S), (S, S)),),
    ('normalize', (S, S, S), (),),
    ('unfold', (S, S, S, S), ([2, 3],),),
    ('fold', (1, 3 * 2 * 2, 12), ([4, 5], [2, 2]),),
    ('grid_sample', (S, S, S, S), (torch.rand(S, S, S, 2, dtype=torch.double),),),
    ('multilabel_margin_loss', torch.tensor([[0.2, -0.2, 0.07]]), (torch.tensor([[0, 0, 1]]),),),
    ('multi_margin_loss', (S, S), (torch.randint(S, (S, ), dtype=torch.int64),
                                   1, 1., torch.randn(S, dtype=torch.double)),),
    ('binary_cross_entropy', torch.randn(3, 2).sigmoid(), (torch.rand(3, 2),
                                                           torch.randn(3, 2)),),
    ('binary_cross_entropy', torch.randn(3, 2).sigmoid(),
        (torch.rand(3, 2), torch.randn(3, 2), None, None, 'mean')),
    ('upsample', torch.randn(S, S, M, M), (None, 2)),
    ('upsample', torch.randn(S, S, M, M), (4,)),
    ('interpolate', torch.zeros(3, 3).view(1, 1, 3, 3), (2,)),
    ('interpolate', torch.randn(S, S, M, M), (None, 2.)),
    ('interpolate', torch.randn(S, S, M, M), (4,)),
    ('interpolate', torch.randn(S, M, M), (None, 2.)),
    ('interpolate', torch.randn(S, M, M), (4,)),
    ('interpolate', torch.randn(S, M, M, M, M), (None, 2.)),
    ('interpolate', torch.randn(S, M, M, M, M), (4,)),
]

# the interpolate entries that name a mode (create_script_fn passes it as a keyword)
_MODES = [
    (torch.zeros(3, 3).view(1, 1, 3, 3), (2,), 'area'),
    (torch.randn(S, S, M, M), (None, 2.), 'area'),
    (torch.randn(S, S, M, M), (4,), 'area'),
    (torch.zeros(3, 3).view(1, 1, 3, 3), (2,), 'bilinear'),
    (torch.randn(S, S, M, M), (None, 2.), 'bilinear'),
    (torch.randn(S, S, M, M), (4,), 'bilinear'),
    (torch.zeros(3, 3).view(1, 1, 3, 3), (2,), 'bicubic'),
    (torch.randn(S, S, M, M), (None, 2.), 'bicubic'),
    (torch.randn(S, S, M, M), (4,), 'bicubic'),
    (torch.zeros(3, 3).view(1, 3, 3), (2,), 'area'),
    (torch.randn(S, M, M), (None, 2.), 'area'),
    (torch.randn(S, M, M), (4,), 'area'),
    (torch.zeros(3, 3).view(1, 3, 3), (2,), 'linear'),
    (torch.randn(S, M, M), (None, 2.), 'linear'),
    (torch.randn(S, M, M), (4,), 'linear'),
    (torch.zeros(3, 3, 3).view(1, 1, 3, 3, 3), (2,), 'area'),
    (torch.randn(S, M, M, M, M), (None, 2.), 'area'),
    (torch.randn(S, M, M, M, M), (4,), 'area'),
    (torch.zeros(3, 3, 3).view(1, 1, 3, 3, 3), (2,), 'trilinear'),
    (torch.randn(S, M, M, M, M), (None, 2.), 'trilinear'),
    (torch.randn(S, M, M, M, M), (4,), 'trilinear'),
]


def _constant(x):
    if isinstance(x, float) and math.isinf(x):
        return 'math.inf' if x > 0 else '-math.inf'
    if isinstance(x, str):
        return "'{}'".format(x)
    return str(x)


def _case(name, self_arg, args, kwargs=""):
    inputs = [_arg(self_arg)] + [_arg(a) for a in args]
    formals, tensors, actuals = [], [], []
    for a in inputs:
        if isinstance(a, torch.Tensor):
            n = 'i{}'.format(len(formals))
            formals.append(n)
            actuals.append(n)
            tensors.append(a)
        else:
            actuals.append(_constant(a))
    src = '\ndef the_method({}):\n    return torch.nn.functional.{}({}{})\n'.format(
        ', '.join(formals), name, ', '.join(actuals), kwargs)
    return (src, [tuple(tensors)])


CASES = [_case(name, s, a) for name, s, a in _TESTS]
CASES += [_case('interpolate', s, a, ", mode='{}'".format(m)) for s, a, m in _MODES]
