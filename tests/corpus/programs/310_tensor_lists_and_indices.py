def lists_of_tensors(n: int) -> List[bool]:
    t1 = torch.ones([1, 1])
    t2 = torch.ones([1, 1]) * n
    x = [t1, t2]
    y = [t2, t1]
    return [x == y, x != y, (t1, t2) == (t1, t2), t1 in [t2]]


def ambiguous(n: int) -> bool:
    t1 = torch.ones([2, n])
    x = [t1, t1 + 1]
    return x == [t1 + 1, t1]


def list_indices(rows: List[List[int]], pick: List[int]) -> List[List[int]]:
    x = torch.tensor(rows)
    return [x[pick].flatten().tolist(), x[:, [0]].flatten().tolist(),
            x[[True, False, True]].flatten().tolist()]


def empty_index(n: int) -> List[int]:
    x = torch.arange(n * 4).reshape(n, 2, 2)
    empty: List[int] = []
    return list(x[empty, :, :].shape)


def out_of_range(n: int) -> List[int]:
    x = torch.arange(6).reshape(3, 2)
    return x[[n]].flatten().tolist()


def tensor_identity_hash(n: int) -> List[bool]:
    a = torch.tensor(n)
    b = torch.tensor(n)
    return [hash(a) == hash(a), hash(a) == hash(b)]


def dict_of_nothing(n: int) -> Dict[str, int]:
    d: Dict[str, int] = dict([])
    d["n"] = n
    return d


CASES = [
    ("lists_of_tensors", (1,)), ("lists_of_tensors", (2,)),
    ("ambiguous", (2,)),
    ("list_indices", ([[1, 2], [3, 4], [5, 6]], [2, 0])),
    ("empty_index", (3,)),
    ("out_of_range", (1,)), ("out_of_range", (4,)),
    ("tensor_identity_hash", (3,)),
    ("dict_of_nothing", (5,)),
]
