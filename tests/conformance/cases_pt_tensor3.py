"""The issue's smaller TorchScript features as CompilationUnit sources: tolist() typed
from the dtype (argmax), tensordot, torch.device values and parameters, Ellipsis in
indexing, iterating a tensor and `x in t`, a list filled from .item()."""

import torch
CASES = [
('''
def f(x: Tensor):
    a = torch.argmax(x, 1).tolist()
    return a, [i + 1 for i in a], torch.tensordot(x, x.t(), dims=1)
''', [(torch.tensor([[1.0, 3.0], [4.0, 2.0]]),)]),
('''
def f(x: Tensor, d: torch.device):
    y = x.to(d)
    dev = torch.device("cpu")
    return y.device == dev, str(dev), dev.type, x[..., 0], x[0, ...], x[..., None].shape
''', [(torch.ones(2, 3), torch.device("cpu"))]),
('''
def f(x: Tensor):
    out = []
    for row in x:
        out.append(row.sum().item())
    return out, 3.0 in x, float(x.max())
''', [(torch.tensor([[1.0, 2.0], [3.0, 4.0]]),)]),
]
