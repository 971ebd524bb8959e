from typing import List, Optional


class Node:
    def __init__(self, value: int):
        self.value = value
        self.children: List[Node] = []

    def add(self, child: "Node") -> "Node":
        self.children.append(child)
        return self

    def total(self) -> int:
        s = self.value
        for c in self.children:
            s += c.total()
        return s

    def depth(self) -> int:
        best = 0
        for c in self.children:
            d = c.depth()
            if d > best:
                best = d
        return best + 1


def build(n: int) -> List[int]:
    root = Node(1)
    for i in range(n):
        child = Node(i * 10)
        child.add(Node(i))
        root.add(child)
    return [root.total(), root.depth(), len(root.children)]


CASES = [("build", (3,)), ("build", (0,))]
