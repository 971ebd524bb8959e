def scaled(xs: List[float], k: float = 2.0) -> List[float]:
    return [x * k for x in xs]


def forked(xs: List[float]) -> List[float]:
    fut = torch.jit.fork(scaled, xs)
    fut2 = torch.jit._fork(scaled, xs, k=0.5)
    return torch.jit.wait(fut) + torch.jit._wait(fut2)


def futures(n: int) -> List[int]:
    futs: List[torch.jit.Future[int]] = []
    for i in range(n):
        futs.append(torch.jit.fork(abs, i - 2))
    return [torch.jit.wait(f) for f in futs]


CASES = [("forked", ([1.0, 2.5],)), ("futures", (4,))]
