def pick(n: int) -> Any:
    if n > 0:
        return n * 2
    elif n == 0:
        return "zero"
    return [float(n)]


def describe(n: int) -> str:
    v = pick(n)
    if isinstance(v, int):
        return "int " + str(v)
    if isinstance(v, str):
        return "str " + v
    return "list " + str(v)


def power(a: int, b: int) -> int:
    return a ** b


def legacy(xs: List[int]) -> Tuple[List[float], List[bool], List[int], int]:
    return (torch.DoubleTensor(xs).tolist(), torch.BoolTensor(xs).tolist(),
            torch.LongTensor([1.5, -2.5]).tolist(), torch.FloatTensor().numel())


CASES = [
    ("pick", (3,)), ("pick", (0,)), ("pick", (-2,)),
    ("describe", (3,)), ("describe", (0,)), ("describe", (-2,)),
    ("power", (0, -2)), ("power", (0, 0)), ("power", (2, 10)),
    ("legacy", ([0, 2, 3],)),
]
