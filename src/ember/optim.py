"""Optimizers for `ember.train_step`, with torch.optim's update rules.

An optimizer here holds hyper-parameters only; `ember.train_step` asks it to emit its
update as IR (`emit`), so the update runs inside the compiled step, in process and in
a saved artifact alike. Its state (momentum buffers, Adam's moments, the step count)
lives in tensors of the artifact that the step updates in place.

    SGD(lr, momentum=0, weight_decay=0, nesterov=False, dampening=0)
    Adam(lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0)
    AdamW(lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2)
"""

from __future__ import annotations


class Optimizer:
    """Base: `state(shape_of_param) -> names of per-parameter state tensors`."""

    per_param: tuple = ()
    """Names of the state tensors each parameter has (zeros at first)."""
    counts_steps = False
    """Whether the update needs the step count (a float64 scalar tensor)."""

    def emit(self, e, p, g, state: dict, step) -> None:
        """Emit the in-place update of parameter p (a tensor value) with gradient g;
        state maps per_param names to their tensors; step is the step count (a float)."""
        raise NotImplementedError

    @staticmethod
    def _assign(e, dst, value) -> None:
        e.op("tensor.copy_", dst, value)


class SGD(Optimizer):
    """torch.optim.SGD: d = g + wd * p; buf = momentum * buf + (1 - dampening) * d
    (buf = d at the first step); d = d + momentum * buf (nesterov) or buf; p -= lr * d."""

    def __init__(self, lr: float, momentum: float = 0.0, weight_decay: float = 0.0,
                 nesterov: bool = False, dampening: float = 0.0):
        if lr < 0 or momentum < 0 or weight_decay < 0:
            raise ValueError("SGD: lr, momentum and weight_decay must be >= 0")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        self.lr, self.momentum, self.weight_decay = float(lr), float(momentum), \
            float(weight_decay)
        self.nesterov, self.dampening = bool(nesterov), float(dampening)
        self.per_param = ("momentum_buffer",) if momentum else ()
        self.counts_steps = bool(momentum and dampening)

    def emit(self, e, p, g, state, step) -> None:
        d = g
        if self.weight_decay:
            d = e.op("tensor.add", d, e.op("tensor.mul_scalar", p, self.weight_decay))
        if self.momentum:
            buf = state["momentum_buffer"]
            if self.dampening:  # the first step copies d (torch)
                scaled = e.op("tensor.mul_scalar", d, 1.0 - self.dampening)
                nb = e.op("tensor.add", e.op("tensor.mul_scalar", buf, self.momentum), scaled)
                first = e.op("float.eq", step, 1.0)
                nb = e.op("tensor.where", e.op("tensor.full_like", buf, first, e.dtype("bool")),
                          d, nb)
                self._assign(e, buf, nb)
            else:  # torch: buf.mul_(momentum).add_(d) (zeros at first: buf = d)
                e.op("tensor.mul_scalar_", buf, self.momentum)
                e.op("tensor.add_", buf, d)
            d = e.op("tensor.add", d, e.op("tensor.mul_scalar", buf, self.momentum)) \
                if self.nesterov else buf
        e.op("tensor.sub_", p, e.op("tensor.mul_scalar", d, self.lr))


class Adam(Optimizer):
    """torch.optim.Adam (amsgrad=False): m = lerp(m, g, 1 - b1); v = b2 v + (1 - b2) g²;
    p -= lr / (1 - b1^t) * m / (sqrt(v) / sqrt(1 - b2^t) + eps); weight decay adds wd * p
    to g."""

    per_param = ("exp_avg", "exp_avg_sq")
    counts_steps = True
    decoupled = False

    def __init__(self, lr: float = 1e-3, betas=(0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0.0):
        b1, b2 = betas
        if lr < 0 or eps < 0 or not 0 <= b1 < 1 or not 0 <= b2 < 1 or weight_decay < 0:
            raise ValueError(f"{type(self).__name__}: invalid hyper-parameters")
        self.lr, self.b1, self.b2, self.eps = float(lr), float(b1), float(b2), float(eps)
        self.weight_decay = float(weight_decay)

    def emit(self, e, p, g, state, step) -> None:
        if self.weight_decay and self.decoupled:
            e.op("tensor.mul_scalar_", p, 1.0 - self.lr * self.weight_decay)
        elif self.weight_decay:
            g = e.op("tensor.add", g, e.op("tensor.mul_scalar", p, self.weight_decay))
        m, v = state["exp_avg"], state["exp_avg_sq"]
        e.op("tensor.add_", m, e.op("tensor.mul_scalar", e.op("tensor.sub", g, m), 1.0 - self.b1))
        e.op("tensor.mul_scalar_", v, self.b2)
        e.op("tensor.add_", v, e.op("tensor.mul_scalar", e.op("tensor.mul", g, g), 1.0 - self.b2))
        nm, nv = m, v
        bc1 = e.op("float.sub", 1.0, e.op("float.pow", self.b1, step))
        bc2 = e.op("float.sub", 1.0, e.op("float.pow", self.b2, step))
        step_size = e.op("float.truediv", self.lr, bc1)
        denom = e.op("tensor.add_scalar", e.op("tensor.truediv_scalar", e.op("tensor.sqrt", nv),
                                               e.op("math.sqrt", bc2)), self.eps)
        upd = e.op("tensor.mul_scalar", e.op("tensor.truediv", nm, denom), step_size)
        e.op("tensor.sub_", p, upd)


class AdamW(Adam):
    """torch.optim.AdamW: p *= 1 - lr * wd, then Adam's update without weight decay."""

    decoupled = True

    def __init__(self, lr: float = 1e-3, betas=(0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 1e-2):
        super().__init__(lr, betas, eps, weight_decay)


__all__ = ["SGD", "Adam", "AdamW", "Optimizer"]
