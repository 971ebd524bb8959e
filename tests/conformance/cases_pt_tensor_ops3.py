"""TorchScript checkScript-style cases written for ember (pt tensor ops3); the
constructs follow PyTorch's JIT tests, the programs and inputs are ember's own."""

import torch
torch.manual_seed(1)
X = torch.randn(3, 4)
Y = torch.randn(3, 4)
S = torch.tensor([[1.0, -1.0, 1.0, -1.0], [-1.0, 1.0, 0.5, -1.0], [1.0, 1.0, -1.0, -1.0]])
CASES = [
('''
def f(x: Tensor, y: Tensor, s: Tensor):
    return F.hinge_embedding_loss(x, s), F.hinge_embedding_loss(x, s, 0.5, reduction="none"), F.soft_margin_loss(x, s, reduction="sum"), F.multilabel_soft_margin_loss(x, (s > 0).float())
''', [(X, Y, S)]),
('''
def f(x: Tensor, y: Tensor, s: Tensor):
    return F.margin_ranking_loss(x[0], y[0], s[0]), F.margin_ranking_loss(x[0], y[0], s[0], 0.3, reduction="none"), F.poisson_nll_loss(x, y.abs()), F.poisson_nll_loss(x.abs(), y.abs(), False, True, reduction="sum")
''', [(X, Y, S)]),
('''
def f(x: Tensor, y: Tensor, s: Tensor):
    return F.gaussian_nll_loss(x, y, s.abs() + 0.1), F.gaussian_nll_loss(x, y, torch.ones(3), full=True, reduction="none"), F.triplet_margin_loss(x, y, s), F.triplet_margin_loss(x, y, s, 0.5, 1.0, swap=True, reduction="none")
''', [(X, Y, S)]),
('''
def f(x: Tensor, y: Tensor, s: Tensor):
    return F.bilinear(x, y, torch.ones(2, 4, 4) * 0.1, torch.tensor([1.0, 2.0])), F.rrelu(x), F.rrelu(x, 0.1, 0.2, False)
''', [(X, Y, S)]),
('''
def f(t: Tuple[int, str, int], u: Tuple[float, float]) -> Tuple[int, int, int, int]:
    return t.index(3), t.count(3), t.index("b"), u.count(2.0)
''', [((3, "b", 3), (2.0, 2.0)), ((1, "c", 3), (0.5, 2.0))]),
('''
def f(v: Tensor, w: Tensor):
    a, b = torch.meshgrid(v, w)
    c = torch.meshgrid([v, w], indexing="xy")
    return a, b, c[1], torch.block_diag(v.view(1, 3), w.view(2, 1), v), torch.cartesian_prod(v, w), torch.chain_matmul(v.view(3, 1), w.view(1, 2), w.view(2, 1))
''', [(torch.tensor([1., 2., 3.]), torch.tensor([4., 5.]))]),
('''
def f(x: Tensor):
    return torch.tensor_split(x, 3), torch.tensor_split(x, [1, 4]), x.tensor_split(2, 1), torch.vsplit(x, [2]), torch.hsplit(x, 2), torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 1]))
''', [(torch.arange(10.).view(5, 2),)]),
('''
def f(x: Tensor):
    return torch.vsplit(x, 2)
''', [(torch.arange(10.).view(5, 2),)]),
]
