def grow(n: int) -> List[List[int]]:
    xs = [torch.ones(2)]
    xs.append(torch.zeros(n))
    xs += [torch.ones(n, 2)]
    xs[0] = torch.arange(3.0)
    return [list(x.shape) for x in xs]


def by_name(n: int) -> List[int]:
    d = {"a": torch.ones(2)}
    d["b"] = torch.zeros(n, n)
    pairs = [(torch.ones(1), 1)]
    pairs.append((torch.zeros(n), 2))
    nested = [[torch.ones(2)]]
    nested[0].append(torch.ones(n))
    made = [torch.ones(i) for i in range(2)]
    made.append(torch.ones(n, 1))
    return [d["b"].numel(), pairs[1][0].numel(), nested[0][1].numel(), made[2].dim()]


CASES = [
    ("grow", (3,)), ("grow", (0,)),
    ("by_name", (4,)),
]
