from typing import List, Optional, Tuple


class Item:
    def __init__(self, name: str, price: float, tags: List[str]):
        self.name = name
        self.price = price
        self.tags = tags

    def __lt__(self, other: "Item") -> bool:
        return self.price < other.price


class Node:
    def __init__(self, value: int, child: Optional["Node"]):
        self.value = value
        self.child = child


def cheapest(items: List[Item]) -> Tuple[str, float]:
    best = sorted(items)[0]
    return best.name, best.price


def tagged(items: List[Item], tag: str) -> List[str]:
    return [it.name for it in items if tag in it.tags]


def depth(n: Node) -> int:
    d = 1
    cur = n.child
    while cur is not None:
        d += 1
        cur = cur.child
    return d


CASES = [("cheapest", ([Item("a", 3.0, ["x"]), Item("b", 1.5, []), Item("c", 2, ["x", "y"])],)),
         ("tagged", ([Item("a", 3.0, ["x"]), Item("b", 1.5, []), Item("c", 2.0, ["x"])], "x")),
         ("tagged", ([], "x")),
         ("depth", (Node(1, Node(2, Node(3, None))),)), ("depth", (Node(1, None),))]
