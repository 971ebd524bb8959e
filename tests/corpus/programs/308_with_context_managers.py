class Counter:
    def __init__(self, log: List[str]):
        self.log = log
        self.depth = 0

    def __enter__(self):
        self.depth += 1
        self.log.append("enter")
        return self

    def __exit__(self, exc_type: Any, exc_value: Any, traceback: Any):
        self.depth -= 1
        self.log.append("exit")


class Plain:
    def __init__(self):
        self.n = 0

    def __enter__(self) -> int:
        self.n += 10
        return self.n

    def __exit__(self, a, b, c):
        self.n += 1


def f(k: int) -> List[str]:
    log: List[str] = []
    c = Counter(log)
    with c as d:
        log.append("body " + str(d.depth))
        with Counter(log), Counter(log) as e:
            log.append("inner " + str(e.depth))
    log.append("after " + str(c.depth))
    return log


def g(k: int) -> int:
    p = Plain()
    total = 0
    for i in range(k):
        with p as v:
            total += v
            if i == 1:
                continue
            total += 1000
    return total + p.n


def h(k: int) -> List[str]:
    log: List[str] = []
    try:
        with Counter(log):
            log.append("body")
            if k > 0:
                raise ValueError("boom")
            log.append("not reached" if k > 0 else "no raise")
    except ValueError as e:
        log.append("caught " + str(e))
    return log


def r(k: int) -> int:
    p = Plain()
    with p as v:
        return v + k


CASES = [("f", (1,)), ("g", (3,)), ("g", (0,)), ("h", (1,)), ("h", (0,)), ("r", (5,))]
