def lists(xs: List[int], a: int, b: int) -> List[List[int]]:
    s = slice(a, b)
    r = slice(None, None, -1)
    t = slice(b)
    return [xs[s], xs[r], xs[t], xs[slice(1, None, 2)], xs[slice(-2, None)]]


def strings(s: str) -> str:
    k = slice(1, -1)
    return s[k] + "|" + s[slice(3)] + "|" + s[slice(None, None, 2)]


def tensors(rows: List[List[float]]) -> List[float]:
    x = torch.tensor(rows)
    s = slice(0, 2)
    return x[s, 1].tolist() + x[slice(1, None)].flatten().tolist()


def parts(a: int) -> List[Optional[int]]:
    s = slice(a, None)
    u = slice(a, a + 4, 2)
    return [s.start, s.stop, s.step, u.start, u.stop, u.step]


def bounds_evaluated_once(xs: List[int], n: int) -> List[int]:
    s = slice(0, n)
    n = 1
    return xs[s] + [n]


def in_a_loop(xs: List[int]) -> List[List[int]]:
    out: List[List[int]] = []
    for i in range(len(xs)):
        w = slice(i, i + 2)
        out.append(xs[w])
    return out


def zero_step(xs: List[int]) -> List[int]:
    return xs[slice(None, None, 0)]


CASES = [
    ("lists", ([1, 2, 3, 4, 5], 1, 3)), ("lists", ([], 0, 9)),
    ("strings", ("hello",)), ("strings", ("",)),
    ("tensors", ([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]],)),
    ("parts", (2,)),
    ("bounds_evaluated_once", ([1, 2, 3, 4], 3)),
    ("in_a_loop", ([1, 2, 3],)),
    ("zero_step", ([1, 2],)),
]
