"""Tensors in Python-style programs, as CompilationUnit sources: a class with __call__
over tensors, stacking a list filled in a loop, norms of rows with max(key=), topk and
sort, sums over a list of tensors."""

import torch
torch.manual_seed(0)
CASES = [
('''
class Linear:
    def __init__(self, w: Tensor, b: Tensor):
        self.w = w
        self.b = b
    def __call__(self, x: Tensor) -> Tensor:
        return x @ self.w.t() + self.b

def f(x: Tensor, w: Tensor, b: Tensor):
    layer = Linear(w, b)
    outs = []
    for i in range(x.shape[0]):
        outs.append(layer(x[i]))
    return torch.stack(outs), [o.shape[0] for o in outs]
''', [(torch.ones(3, 4), torch.ones(2, 4), torch.zeros(2))]),
('''
def f(x: Tensor):
    norms = [float(row.norm()) for row in x]
    idx = max(range(len(norms)), key=lambda i: norms[i])
    return idx, round(sum(norms), 4), x[idx].tolist() if False else idx
''', [(torch.tensor([[3.0, 4.0], [1.0, 1.0]]),)]),
('''
def f(x: Tensor, k: int):
    vals, idx = torch.topk(x, k)
    return vals, idx, [int(i) for i in idx], torch.sort(x, descending=True)[0][:k]
''', [(torch.tensor([1.0, 5.0, 3.0, 4.0]), 2)]),
('''
def f(xs: List[Tensor]):
    total = torch.zeros(2)
    for t in xs:
        total = total + t
    return total, len(xs), torch.cat(xs).shape if xs else [0]
''', [([torch.ones(2), torch.ones(2) * 2],)]),
]
