def maxima(rows: List[List[float]]) -> Tuple[List[float], List[int], List[float]]:
    x = torch.tensor(rows)
    top = x.max(dim=1).values.tolist()
    where = torch.max(x, 1).indices.tolist()
    low = x.sort(dim=0, descending=False).values[0].tolist()
    return top, where, low


def picked(rows: List[List[int]], i: List[List[int]], j: List[List[int]]) -> List[int]:
    x = torch.tensor(rows)
    return x[i, j].flatten().tolist() + x[[0.5, 1.5]].flatten().tolist()


def kinds(v: Optional[List[int]]) -> int:
    n = 0
    if isinstance(v, (int, (float, list), str)):
        n += 1
    if isinstance(v, (str, (int,))):
        n += 10
    return n


class Settings(NamedTuple):
    name: str = "default"
    sizes: List[int] = [1, 2]
    table: Dict[str, int] = {"a": 1}


def settings(k: int) -> Tuple[str, List[int], int]:
    s = Settings()
    t = Settings(name="t", sizes=[k])
    return s.name + t.name, s.sizes + t.sizes, s.table["a"] + len(t.table)


def helpers(rows: List[List[int]]) -> Tuple[int, List[List[int]], List[List[int]], List[int]]:
    x = torch.tensor(rows)
    y = torch.zeros(3, dtype=torch.int64)
    y.index_add_(0, torch.tensor([0, 2, 0]), torch.tensor([1, 2, 3]))
    return (int(torch.trace(x)), torch.rot90(x).tolist(), x.unfold(1, 2, 1)[0].tolist(),
            y.tolist())


def filled(n: int) -> List[float]:
    x = torch.empty(n)
    torch.nn.init.constant_(x, 2.5)
    y = torch.nn.init.ones_(torch.empty(n))
    return (x + y + torch.nn.init.zeros_(torch.empty(n))).tolist()


def truths(xs: List[int], ss: List[str]) -> Tuple[bool, bool, bool, bool]:
    return any(xs), all(xs), any(ss), all(ss)


CASES = [
    ("maxima", ([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]],)),
    ("picked", ([[1, 2], [3, 4], [5, 6]], [[0, 2], [1, 1]], [[1, 0], [0, 1]])),
    ("kinds", ([3],)), ("kinds", (None,)),
    ("settings", (7,)),
    ("helpers", ([[1, 2, 3], [4, 5, 6], [7, 8, 9]],)),
    ("filled", (3,)),
    ("truths", ([0, 2], ["a", ""])), ("truths", ([], [])),
]
