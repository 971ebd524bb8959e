"""Tensor-mode productions that change shapes: reshape, transpose/t/permute, cat,
stack, indexing and slicing, unsqueeze/squeeze. Each reads shapes from the TV values
it picks and emits only valid ops."""

from __future__ import annotations

import math


class ShapeProductions:
    def reshape(self):
        v = self.pick(lambda v: len(v.shape) >= 1)
        n = math.prod(v.shape)
        r = self.rng.random()
        if r < 0.3:
            return self.new(f"{v.name}.reshape(-1)", (n,), v.dtype)
        divs = [k for k in range(1, n + 1) if n % k == 0]
        k = self.rng.choice(divs)
        shape = (k, n // k)
        # NOTE: not .view(): torch refuses it on a transposed (non-contiguous) tensor.
        if r < 0.6:
            return self.new(f"{v.name}.reshape({k}, {n // k})", shape, v.dtype)
        return self.new(f"{v.name}.reshape({k}, -1)", shape, v.dtype)

    def transpose(self):
        v = self.pick(lambda v: len(v.shape) >= 2)
        if v is None:
            return False
        n = len(v.shape)
        r = self.rng.random()
        if n == 2 and r < 0.3:
            return self.new(f"{v.name}.t()", v.shape[::-1], v.dtype)
        if r < 0.65:
            i, j = self.rng.sample(range(n), 2)
            shape = list(v.shape)
            shape[i], shape[j] = shape[j], shape[i]
            return self.new(f"{v.name}.transpose({i}, {j})", shape, v.dtype)
        perm = list(range(n))
        self.rng.shuffle(perm)
        return self.new(f"{v.name}.permute({', '.join(map(str, perm))})",
                        [v.shape[p] for p in perm], v.dtype)

    def cat(self):
        a = self.pick(lambda v: len(v.shape) >= 1)
        d = self.rng.randrange(len(a.shape))
        mates = [b for b in self.vals if len(b.shape) == len(a.shape) and b.dtype == a.dtype
                 and all(x == y for i, (x, y) in enumerate(zip(a.shape, b.shape)) if i != d)]
        b = self.rng.choice(mates)
        shape = list(a.shape)
        shape[d] += b.shape[d]
        return self.new(f"torch.cat([{a.name}, {b.name}], {d})", shape, a.dtype)

    def index(self):
        v = self.pick(lambda v: len(v.shape) >= 1)
        n0 = v.shape[0]
        r = self.rng.random()
        if r < 0.3 and (self.zero_dim or len(v.shape) >= 2):
            i = self.rng.randrange(-n0, n0)
            return self.new(f"{v.name}[{i}]", v.shape[1:], v.dtype)
        a = self.rng.randrange(n0)
        b = self.rng.randint(a + 1, n0)
        if r < 0.6 or len(v.shape) < 2:
            rest = ", ..." if self.rng.random() < 0.5 else ""
            return self.new(f"{v.name}[{a}:{b}{rest}]", (b - a,) + v.shape[1:], v.dtype)
        n1 = v.shape[1]
        c = self.rng.randrange(n1)
        if r < 0.8:
            return self.new(f"{v.name}[:, {c}]", (v.shape[0],) + v.shape[2:], v.dtype)
        e = self.rng.randint(c + 1, n1)
        return self.new(f"{v.name}[{a}:{b}, {c}:{e}]", (b - a, e - c) + v.shape[2:], v.dtype)

    def unsqueeze(self):
        v = self.pick()
        ones = [i for i, s in enumerate(v.shape) if s == 1
                and (self.zero_dim or len(v.shape) >= 2)]
        if ones and self.rng.random() < 0.5:
            d = self.rng.choice(ones)
            return self.new(f"{v.name}.squeeze({d})", v.shape[:d] + v.shape[d + 1:], v.dtype)
        d = self.rng.randint(0, len(v.shape))
        return self.new(f"{v.name}.unsqueeze({d})", v.shape[:d] + (1,) + v.shape[d:], v.dtype)

    def stack(self):
        v = self.pick()
        d = self.rng.randint(0, len(v.shape))
        shape = v.shape[:d] + (2,) + v.shape[d:]
        return self.new(f"torch.stack([{v.name}, {v.name}], {d})", shape, v.dtype)

