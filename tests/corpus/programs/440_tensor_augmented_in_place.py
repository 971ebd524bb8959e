def alias_sees_update(xs: List[float]) -> List[float]:
    x = torch.tensor(xs)
    y = x
    y += 1.0
    y *= 2.0
    return x.tolist()


def keeps_dtype(xs: List[float]) -> str:
    x = torch.tensor(xs)
    x += torch.tensor(xs, dtype=torch.float64)
    return str(x.dtype) + " " + str(x.tolist())


def int_tensor_gets_float(xs: List[int]) -> List[int]:
    x = torch.tensor(xs)
    try:
        x += 0.5
    except RuntimeError as e:
        return [-1]
    return x.tolist()


def list_element(rows: List[List[float]]) -> List[List[float]]:
    ts = [torch.tensor(r) for r in rows]
    for t in ts:
        t -= 1.0
    return [t.tolist() for t in ts]


def row_of_matrix(rows: List[List[float]]) -> List[List[float]]:
    m = torch.tensor(rows)
    r = m[0]
    r /= 2.0
    return m.tolist()


def accumulate(n: int) -> List[float]:
    total = torch.zeros(2)
    parts = []
    for i in range(n):
        total += torch.tensor([float(i), 1.0])
        parts.append(total)
    return [float(p.sum()) for p in parts]


class Acc:
    def __init__(self):
        self.t = torch.zeros(2)

    def add(self, v: float) -> Tensor:
        self.t += v
        return self.t


def field_update(v: float) -> List[float]:
    a = Acc()
    before = a.t
    a.add(v)
    a.add(v)
    return before.tolist()


def scalar_left(xs: List[float]) -> List[float]:
    s = 1.0
    t = torch.tensor(xs)
    u = s + t
    u -= t
    return u.tolist() + t.tolist()


CASES = [
    ("alias_sees_update", ([1.0, 2.5],)),
    ("keeps_dtype", ([0.1, 0.2],)),
    ("int_tensor_gets_float", ([1, 2],)),
    ("list_element", ([[1.0, 2.0], [3.0]],)),
    ("row_of_matrix", ([[2.0, 4.0], [6.0, 8.0]],)),
    ("accumulate", (3,)),
    ("field_update", (1.5,)),
    ("scalar_left", ([1.0, 2.0],)),
]
