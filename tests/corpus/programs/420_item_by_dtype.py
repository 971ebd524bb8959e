def bump(x):
    s = x.item()
    if isinstance(s, int):
        return s + 3
    return -1


def scaled(x, k: int):
    return x.item() * k


def annotated(x: Tensor, k: int):
    return x.item() + k


def kinds(n: int) -> Tuple[int, int, int, int, float]:
    ints = torch.tensor([n, n + 1])
    return (bump(torch.tensor(n)), bump(ints[1]), bump(torch.tensor(2.5)),
            scaled(torch.tensor(n), 2), scaled(torch.tensor(1.5), n))


def typed(n: int) -> str:
    c = annotated(torch.tensor([n]), 1)
    a = scaled(torch.tensor(n), 3) + c
    b = scaled(torch.tensor(float(n)), 3)
    return str(a) + " " + str(b)


CASES = [
    ("kinds", (4,)), ("kinds", (-2,)),
    ("typed", (5,)),
]
