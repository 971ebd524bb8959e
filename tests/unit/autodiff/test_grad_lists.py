"""Gradients through lists of tensors: the pieces of chunk / split / unbind read by index
or unpacked, and lists built by appends (in loops and branches), checked in float64
against torch.autograd and central differences, on the VM and after save -> mobile.load;
what would break the list adjoints' invariants is refused by name."""

from typing import List, Tuple

import numpy as np
import pytest

import ember
from tests.unit.autodiff.test_grad_tensor import A, check

torch = pytest.importorskip("torch")
F = torch.nn.functional
Tensor = torch.Tensor


def pieces(x: Tensor, y: Tensor) -> Tensor:
    a, b = x.chunk(2, dim=1)
    p = torch.split(y, 2, dim=0)
    q = torch.split(x, [1, 3], dim=1)
    u = torch.unbind(y, 1)
    return (a * b).sum() + (p[0] ** 2).sum() + (p[-1] * 3.0).sum() + \
        (q[1] * q[1][:, :1]).sum() + (u[0] * u[-1] * u[0]).sum()


def uneven_chunks(x: Tensor) -> Tensor:
    c = x.chunk(4, dim=0)  # 5 rows in chunks of 2: three pieces
    return (c[0] ** 2).sum() + (c[2] ** 3).sum() + float(len(c))


def pieces_in_a_loop(x: Tensor, w: Tensor) -> Tensor:
    parts = torch.unbind(x, 0)
    total = torch.zeros(1, dtype=torch.float64)
    for i in range(len(parts)):
        total = total + (parts[i] * w).sum() * float(i + 1)
    for p in x.split(1, dim=1):
        total = total + (p ** 2).sum()
    return total.sum()


def rnn(x: Tensor, w: Tensor, u: Tensor) -> Tensor:
    h = torch.zeros(x.size(1), w.size(1), dtype=torch.float64)
    outs: List[Tensor] = []
    for t in range(x.size(0)):
        h = torch.tanh(x[t] @ w + h @ u)
        outs.append(h)
    return (torch.stack(outs, 0) ** 2).sum() + (torch.cat(outs, 1) * 0.5).sum()


def appends_in_branches(x: Tensor, w: Tensor) -> Tensor:
    outs: List[Tensor] = [x * 2.0]
    h = x
    for i in range(4):
        h = torch.sin(h * w)
        if i % 2 == 0:
            outs.append(h * float(i + 1))
        else:
            outs.append(h ** 2)
            outs.append(h + w)
    last = outs[-1] * outs[1]  # reads after the appends, by index
    return (torch.stack(outs, 0) ** 2).sum() + last.sum() + outs[0].sum()


def read_between_appends(x: Tensor, y: Tensor) -> Tensor:
    xs: List[Tensor] = [x]
    a = xs[-1] * 3.0  # the last element now is x
    xs.append(y * y)
    b = xs[-1] * xs[0]  # and now y * y
    return (a * b).sum() + torch.stack(xs).sum()


def test_chunk_split_unbind_pieces():
    check(pieces, [A(3, 4), A(4, 3)], [0, 1])
    check(uneven_chunks, [A(5, 3)], [0])


def test_pieces_read_in_loops():
    check(pieces_in_a_loop, [A(3, 4), A(4)], [0, 1])


def test_rnn_outputs_appended_in_a_loop():
    check(rnn, [A(5, 2, 3), A(3, 4) * 0.5, A(4, 4) * 0.5], [0, 1, 2])


def test_appends_in_branches_and_reads_after():
    check(appends_in_branches, [A(2, 3), A(2, 3)], [0, 1])
    check(read_between_appends, [A(3), A(3)], [0, 1])


def test_list_gradients_after_save_and_mobile_load(tmp_path):
    from ember import mobile
    g = ember.grad(rnn, argnums=(0, 1, 2))
    args = [A(4, 2, 3), A(3, 4) * 0.5, A(4, 4) * 0.5]
    g.save(tmp_path / "rnn.ember")
    got = mobile.load(tmp_path / "rnn.ember")(*args)
    for a, b in zip(got, g(*args)):
        np.testing.assert_array_equal(a, b)
    g2 = ember.grad(pieces, argnums=(0, 1))
    g2.save(tmp_path / "pieces.ember")
    args = [A(3, 4), A(4, 3)]
    for a, b in zip(mobile.load(tmp_path / "pieces.ember")(*args), g2(*args)):
        np.testing.assert_array_equal(a, b)


# ----------------------------------------------------------------------------- refused


def set_item(x: Tensor) -> Tensor:
    xs = [x, x * 2.0]
    xs[0] = x * x
    return torch.stack(xs).sum()


def popped(x: Tensor) -> Tensor:
    xs: List[Tensor] = []
    for i in range(3):
        xs.append(x * float(i))
    xs.pop()
    return torch.stack(xs).sum()


def from_a_parameter(xs: List[Tensor], y: Tensor) -> Tensor:
    return (xs[0] * y).sum()


def helper(xs: List[Tensor]) -> Tensor:
    return xs[0] * 2.0


def through_a_call(x: Tensor) -> Tensor:
    return helper([x, x]).sum()


def reads_while_appending(x: Tensor) -> Tensor:
    outs: List[Tensor] = [x]
    for i in range(3):
        outs.append(torch.tanh(outs[-1]))
    return torch.stack(outs).sum()


def int_list_read_while_appending(x: float) -> float:
    xs: List[int] = []
    y = x
    for i in range(3):
        xs.append(1)
        y = y * y * float(len(xs))
    return y


@pytest.mark.parametrize("fn, args, msg", [
    (set_item, [A(3)], "changed by 'list.setitem'"),
    (popped, [A(3)], "changed by 'list.pop'"),
    (through_a_call, [A(3)], "passed to 'helper'"),
    (reads_while_appending, [A(3)], "reads a list that changes during or after it"),
    (int_list_read_while_appending, [1.5], "reads a list that changes during or after it"),
])
def test_unsound_list_gradients_are_refused(fn, args, msg):
    with pytest.raises(ember.errors.CompileError, match=msg):
        ember.grad(fn)(*args)


def test_element_of_a_list_parameter_is_refused():
    with pytest.raises(ember.errors.CompileError, match="an element of a list made by"):
        ember.grad(from_a_parameter, argnums=1)([A(3)], A(3))


def helper_tuple(t: Tuple[List[Tensor], int]) -> Tensor:
    return t[0][0] * 2.0


def through_a_call_in_a_tuple(x: Tensor) -> Tensor:
    return helper_tuple(([x, x], 1)).sum()


def test_list_in_a_tuple_passed_to_a_call_is_refused():
    with pytest.raises(ember.errors.CompileError, match="passed to 'helper_tuple'"):
        ember.grad(through_a_call_in_a_tuple)(A(3))
