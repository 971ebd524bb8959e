"""In-place tensor updates under ember.grad (autodiff/inplace.py): `x += y`, `x.add_(y)`
and the other in-place operators with an out-of-place twin are differentiated as
`x = x + y` where no other name can see the update, and refused at their line where one
could. The gradients are checked against torch's autograd."""

import numpy as np
import pytest

import ember
from ember.errors import UnsupportedError

torch = pytest.importorskip("torch")

SRC = '''
def accumulate(x: Tensor, w: Tensor) -> Tensor:
    loss = torch.zeros(())
    for i in range(3):
        loss += (x * w * float(i + 1)).sum()
    return loss

def explicit(x: Tensor, y: Tensor) -> Tensor:
    z = x * 2
    z.add_(y)
    z.mul_(y)
    return (z * z).sum()

def alias(x: Tensor, y: Tensor) -> Tensor:
    z = x * 2
    w = z
    z += y
    return (w * z).sum()

def dtype_kept(x: Tensor, y: Tensor) -> Tensor:
    z = x * 1.5
    z /= y.double()
    return z.sum()

def branch(x: Tensor, y: Tensor, c: bool) -> Tensor:
    z = x * 3
    if c:
        z -= y
    return (z * x).sum()
'''

REFUSED = '''
def listed(x: Tensor, y: Tensor) -> Tensor:
    z = x * 2
    zs = [z]
    z.mul_(y)
    return (zs[0] * x).sum()

def viewed(x: Tensor, y: Tensor) -> Tensor:
    z = x * 2
    v = z[0]
    v += y[0]
    return z.sum()

def parameter(x: Tensor, y: Tensor) -> Tensor:
    x += y
    return x.sum()

def in_branch_read_after(x: Tensor, y: Tensor, c: bool) -> Tensor:
    z = x * 2
    if c:
        z.add_(y)
    return (z * z).sum()
'''


def _torch_grads(name, args, argnums=(0, 1)):
    fns = {}
    exec(SRC.replace("Tensor", "torch.Tensor"), {"torch": torch}, fns)
    targs = [torch.tensor(a, requires_grad=i in argnums) if isinstance(a, np.ndarray) else a
             for i, a in enumerate(args)]
    out = fns[name](*targs)
    wrt = [targs[i] for i in argnums]
    grads = torch.autograd.grad(out, wrt, allow_unused=True)
    return [np.zeros_like(t.detach().numpy()) if g is None else g.numpy()
            for g, t in zip(grads, wrt)]


CASES = [("accumulate", ()), ("explicit", ()), ("alias", ()), ("dtype_kept", ()),
         ("branch", (True,)), ("branch", (False,))]


@pytest.mark.parametrize("name,extra", CASES)
def test_in_place_updates_differentiate_as_torch_does(name, extra):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(3).astype(np.float32)
    y = rng.uniform(0.5, 1.5, 3).astype(np.float32)
    cu = ember.CompilationUnit(SRC)
    got = ember.grad(getattr(cu, name), argnums=(0, 1))(x, y, *extra)
    want = _torch_grads(name, (x, y) + extra)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name,line", [("listed", 5), ("viewed", 11), ("parameter", 15),
                                       ("in_branch_read_after", 21)])
def test_an_update_another_name_could_see_is_refused_at_its_line(name, line):
    cu = ember.CompilationUnit(REFUSED)
    with pytest.raises(UnsupportedError, match="in-place update") as e:
        ember.grad(getattr(cu, name), argnums=(0, 1))
    assert f":{line}:" in str(e.value)


def test_the_forward_value_still_updates_in_place():
    cu = ember.CompilationUnit(REFUSED)
    x = np.ones(2, np.float32)
    assert cu.listed(x, np.full(2, 3.0, np.float32)) == 12.0  # zs[0] sees the update
