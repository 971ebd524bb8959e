from typing import Dict, List


class LRU:
    def __init__(self, capacity: int):
        self.capacity = capacity
        self.data: Dict[int, int] = {}
        self.order: List[int] = []

    def get(self, key: int) -> int:
        if key not in self.data:
            return -1
        self.order.remove(key)
        self.order.append(key)
        return self.data[key]

    def put(self, key: int, value: int) -> None:
        if key in self.data:
            self.order.remove(key)
        elif len(self.data) >= self.capacity:
            oldest = self.order.pop(0)
            del self.data[oldest]
        self.data[key] = value
        self.order.append(key)


def run(cap: int) -> List[int]:
    c = LRU(cap)
    out: List[int] = []
    c.put(1, 1)
    c.put(2, 2)
    out.append(c.get(1))
    c.put(3, 3)
    out.append(c.get(2))
    c.put(4, 4)
    out.append(c.get(1))
    out.append(c.get(3))
    out.append(c.get(4))
    return out


CASES = [("run", (2,)), ("run", (3,))]
