from typing import List


class Counter:
    def __init__(self, start: int):
        self.count = start
        self.history: List[int] = []

    def inc(self, by: int = 1) -> int:
        self.history.append(self.count)
        self.count += by
        return self.count

    def total(self) -> int:
        return self.count + sum(self.history)


def run(n: int) -> List[int]:
    c = Counter(n)
    c.inc()
    c.inc(5)
    return [c.count, c.total(), len(c.history)]


CASES = [("run", (1,)), ("run", (-3,))]
