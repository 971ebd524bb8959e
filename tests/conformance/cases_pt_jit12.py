"""PyTorch's test_jit.py TestBatched functions (scripted there and compared example by
example with their batched forms; here run as CompilationUnit sources on single
examples), and TestScript's default-value, warning, keyword-only and module-training
cases not ported before (a module's `self.training` is a parameter), with the tests'
inputs. In beam, `idx_t_tmp / vocab_size` (integer division in the torch of the time) is
written `//`."""

import torch

torch.manual_seed(0)

_H, _I, _V = 8, 6, 7


def _w(*s):
    return torch.rand(*s)


_LSTM_ARGS = (torch.rand(1, 4, 3), torch.rand(1, 2), torch.rand(1, 2)) + \
    tuple(_w(3, 2) for _ in range(4)) + tuple(_w(2, 2) for _ in range(4)) + \
    tuple(_w(2) for _ in range(4))
_GREEDY_ARGS = (torch.rand(1, _I), torch.rand(1, _H), torch.rand(1, _H), torch.rand(1, _V, _I)) + \
    tuple(_w(_I, _H) for _ in range(4)) + tuple(_w(_H, _H) for _ in range(4)) + \
    tuple(_w(_H) for _ in range(4)) + (_w(_H, _V), _w(_V), torch.tensor([3]))
_BEAM_ARGS = (torch.rand(1, 1, _I), torch.rand(1, 1, _H), torch.rand(1, 1, _H),
              torch.rand(1, _V, _I)) + \
    tuple(_w(_I, _H) for _ in range(4)) + tuple(_w(_H, _H) for _ in range(4)) + \
    tuple(_w(1, _H) for _ in range(4)) + (_w(_H, _V), _w(1, _V), torch.tensor([3]),
                                          torch.zeros([1, 5, 5], dtype=torch.long))

_AB = [(torch.rand(1), torch.rand(1)), (torch.tensor([0.9]), torch.tensor([0.2])),
       (torch.tensor([0.05]), torch.tensor([0.3]))]

CASES = [
    ('''
def tanh(a):
    return torch.tanh(a)
''', [(torch.rand(1, 3, 2),)]),
    ('''
def add(a, b):
    return a + b
''', [(torch.rand(1, 3, 2), torch.rand(1, 3, 2)), (torch.rand(1, 3, 2), torch.rand(3, 2))]),
    ('''
def mm(a, b):
    return torch.mm(a, b)
''', [(torch.rand(3, 2), torch.rand(2, 3)), (torch.rand(3, 2), torch.rand(2, 4))]),
    ('''
def matmul(a, b):
    return torch.matmul(a, b)
''', [(torch.rand(2), torch.rand(2)), (torch.rand(2), torch.rand(2, 3)),
      (torch.rand(3, 2), torch.rand(2)), (torch.rand(1, 3, 2), torch.rand(1, 2, 3))]),
    ('''
def select(x):
    return torch.select(x, 1, 0)
''', [(torch.rand(1, 3, 2),)]),
    ('''
def index_select(x, ind):
    return x.index_select(1, ind)
''', [(torch.rand(1, 5, 2), torch.tensor([3]))]),
    ('''
def where(c, a, b):
    return torch.where(c, a, b)
''', [(torch.rand(1, 3, 2) > 0.5, torch.rand(1, 3, 2), torch.rand(1, 3, 2))]),
    ('''
def argmax(a):
    return torch.argmax(a, 1)
''', [(torch.rand(1, 5, 6),)]),
    ('''
def argmax(a):
    return torch.argmax(a, 1, False)
''', [(torch.rand(1, 5, 6),)]),
    ('''
def topk(a):
    return torch.topk(a, 3, 1)
''', [(torch.rand(1, 5, 6),)]),
    ('''
def topk(a):
    return torch.topk(a, 1, 2)
''', [(torch.rand(1, 5, 6),)]),
    ('''
def softmax(a):
    return torch.softmax(a, 1)
''', [(torch.rand(1, 5, 6),)]),
    ('''
def softmax(a):
    return torch.softmax(a, 2)
''', [(torch.rand(1, 5, 6),)]),
    ('''
def view(a):
    return a.view([1, -1, 3])
''', [(torch.rand(1, 5, 3),)]),
    ('''
def cat2(a, b):
    return torch.cat([a, b], 2)
''', [(torch.rand(1, 5, 3), torch.rand(1, 5, 3))]),
    ('''
def batch_sum(a):
    return a.sum()
''', [(torch.rand(1, 5, 3),)]),
    ('''
def single_if(a, b):
    if bool(a > b):
        a = a + b
    else:
        a = a - b
    return a
''', _AB),
    ('''
def single_if(a, b):
    if bool(a > 0.1):
        a = a + b
    else:
        a = a - b
    return a
''', _AB),
    ('''
def single_if(a, b):
    if bool(a > b):
        a = a + b
    return a
''', _AB),
    ('''
def single_if(a, b):
    if bool(a > 0.1):
        a = a + b
    return a
''', _AB),
    ('''
def single_while(a, b):
    while bool(a > b):
        a = a - b
    return a
''', [(torch.tensor([0.9]), torch.tensor([0.2])), (torch.tensor([0.1]), torch.tensor([0.3]))]),
    ('''
def single_for(x, y):
    for _ in range(10):
        x = x + y
    return x
''', _AB),
    ('''
def LSTM(x_all, h, c, w_xi, w_xf, w_xo, w_xc, w_hi, w_hf, w_ho, w_hc, b_i, b_f, b_o, b_c):
    for i in range(x_all.size(1)):
        x = x_all.select(1, i)
        i_t = torch.matmul(x, w_xi) + torch.matmul(h, w_hi) + b_i
        f_t = torch.matmul(x, w_xf) + torch.matmul(h, w_hf) + b_f
        o_t = torch.matmul(x, w_xo) + torch.matmul(h, w_ho) + b_o
        # activations
        i_t = torch.sigmoid(i_t)
        f_t = torch.sigmoid(f_t)
        o_t = torch.sigmoid(o_t)
        # cell computations
        c_t = torch.matmul(x, w_xc) + torch.matmul(h, w_hc) + b_c
        c_t = torch.tanh(c_t)
        c_t = torch.mul(c_t, f_t) + torch.mul(i_t, c_t)
        h_t = torch.mul(o_t, torch.tanh(c_t))
        h = h_t
        c = c_t
    return h
''', [_LSTM_ARGS]),
    ('''
def greedy(x, h, c, embed, w_xi, w_xf, w_xo, w_xc, w_hi, w_hf, w_ho, w_hc,
           b_i, b_f, b_o, b_c, w_hs, b_s, iter_num):
    iter_count = torch.zeros_like(iter_num)
    while bool(iter_count < iter_num):
        iter_count = iter_count + 1
        # LSTM Cell
        i_t = torch.matmul(x, w_xi) + torch.matmul(h, w_hi) + b_i
        f_t = torch.matmul(x, w_xf) + torch.matmul(h, w_hf) + b_f
        o_t = torch.matmul(x, w_xo) + torch.matmul(h, w_ho) + b_o
        # activations
        i_t = torch.sigmoid(i_t)
        f_t = torch.sigmoid(f_t)
        o_t = torch.sigmoid(o_t)
        # cell computations
        c_t = torch.matmul(x, w_xc) + torch.matmul(h, w_hc) + b_c
        c_t = torch.tanh(c_t)
        c_t = torch.mul(c_t, f_t) + torch.mul(i_t, c_t)
        h_t = torch.mul(o_t, torch.tanh(c_t))
        h = h_t
        c = c_t
        # calculate feature with max probability
        s_t = torch.matmul(h_t, w_hs) + b_s
        p_t = torch.softmax(s_t, 1)
        i_t = torch.argmax(p_t, 1)
        x = embed.index_select(1, i_t).squeeze(1)
    return h
''', [_GREEDY_ARGS]),
    ('''
def beam(x, h, c, embed, w_xi, w_xf, w_xo, w_xc, w_hi, w_hf, w_ho, w_hc,
         b_i, b_f, b_o, b_c, w_hs, b_s, iter_num, idx):
    k = 5
    vocab_size = embed.size(1)
    iter_count = torch.zeros_like(iter_num)
    max_len = idx.size(2)
    while bool(iter_count < iter_num):
        iter_count = iter_count + 1
        # LSTM Cell
        i_t = torch.matmul(x, w_xi) + torch.matmul(h, w_hi) + b_i
        f_t = torch.matmul(x, w_xf) + torch.matmul(h, w_hf) + b_f
        o_t = torch.matmul(x, w_xo) + torch.matmul(h, w_ho) + b_o
        # activations
        i_t = torch.sigmoid(i_t)
        f_t = torch.sigmoid(f_t)
        o_t = torch.sigmoid(o_t)
        # cell computations
        c_t = torch.matmul(x, w_xc) + torch.matmul(h, w_hc) + b_c
        c_t = torch.tanh(c_t)
        c_t = torch.mul(c_t, f_t) + torch.mul(i_t, c_t)
        h_t = torch.mul(o_t, torch.tanh(c_t))
        h = h_t
        c = c_t
        # calculate features with max probability
        s_t = torch.matmul(h_t, w_hs) + b_s
        s_t = s_t.view([1, s_t.size(1) * s_t.size(2)])
        p_t = torch.softmax(s_t, 1)
        prob_t, idx_t = torch.topk(p_t, k, 1)
        if(int(idx_t.dim()) > 1):
            idx_t_tmp = idx_t.squeeze(0)
        else:
            idx_t_tmp = idx_t
        new_y = torch.fmod(idx_t_tmp, vocab_size)
        pre_y = idx_t_tmp // vocab_size
        x = embed.index_select(1, new_y)
        h = h_t.index_select(1, pre_y)
        c = c_t.index_select(1, pre_y)
        iter = int(iter_count[0])
        idx = torch.cat([idx.narrow(2, 0, iter).index_select(1, pre_y),
                         torch.fmod(idx_t, vocab_size).unsqueeze(-1),
                         idx.narrow(2, iter, max_len - iter)], 2)
        idx = idx.narrow(2, 0, max_len)
    return idx
''', [_BEAM_ARGS]),
    # TestScript
    ('''
def none_fn(x=None):
    # type: (Optional[int]) -> Optional[int]
    return x
''', [(), (1,)]),
    ('''
def hints(x, a=0.5, b=10):
    # type: (Tensor, float, int) -> Tensor
    return x + a + b
''', [(torch.ones(1),), (torch.ones(1), 1.5), (torch.ones(1), 1.5, 2)]),
    ('''
def fn(x):
    if bool(x < 2):
        warnings.warn("x is less than 2")
    return x
''', [(torch.tensor(1),), (torch.tensor(3),)]),
    ('''
def fn(x):
    if bool(x > 0):
        warnings.warn('This should NOT be printed')
        x += 1
    return x
''', [(torch.tensor(0),)]),
    ('''
def forward(x, training):
    # type: (int, bool) -> int
    if training:
        r = x
    else:
        r = x + 4
    # check double use of training
    if training:
        r = r + 1
    return r
''', [(3, True), (3, False)]),
    ('''
def foo(x, *, y) -> Tuple[Tensor, Tensor]:
    return x, x

def bar(x):
    return foo(x, y=x)
''', [(torch.ones(2),)]),
    ('''
def test_scalar_to_float_coercion(x):
    return x.item() == 1
''', [(torch.tensor(1.0),), (torch.tensor(1),)]),
    ('''
def test_scalar_cast(x):
    scalar = x.item()
    return int(scalar), float(scalar)
''', [(torch.tensor(1.0),), (torch.tensor(1),)]),
]
