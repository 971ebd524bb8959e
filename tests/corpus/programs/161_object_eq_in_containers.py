from typing import Dict, List, Optional, Tuple


class V:
    def __init__(self, x: float):
        self.x = x

    def __eq__(self, other: "V") -> bool:
        return self.x == other.x

    def __lt__(self, other: "V") -> bool:
        return self.x < other.x

    def __hash__(self) -> int:
        return int(self.x)

    def __repr__(self) -> str:
        return f"V({self.x})"


class Tree:
    def __init__(self, v: int, kids: List["Tree"]):
        self.v = v
        self.kids = kids

    def __eq__(self, other: "Tree") -> bool:
        return self.v == other.v and self.kids == other.kids


class Plain:
    def __init__(self, x: int):
        self.x = x


def compare(a: float, b: float) -> List[bool]:
    return [[V(a)] == [V(b)], (V(a), 1) == (V(b), 1), V(a) in [V(b)],
            [V(a)] != [V(b)], (V(a), 2) < (V(b), 1), [V(a)] < [V(b)]]


def list_methods(x: float) -> List[int]:
    xs = [V(1.0), V(x), V(1.0), V(2.0)]
    xs.remove(V(1.0))
    return [xs.index(V(2.0)), xs.count(V(1.0)), xs.count(V(x)), len(xs)]


def missing(x: float) -> int:
    xs = [V(1.0)]
    return xs.index(V(x))


def dict_keys(x: float) -> Tuple[int, int]:
    d: Dict[V, int] = {}
    d[V(1.0)] = 1
    d[V(x)] = 2
    return len(d), d[V(1.0)]


def trees(n: int) -> List[bool]:
    a = Tree(1, [Tree(2, []), Tree(n, [])])
    b = Tree(1, [Tree(2, []), Tree(3, [])])
    return [a == b, [a] == [b], b in [a]]


def identity(n: int) -> List[bool]:
    p = Plain(n)
    return [[p] == [p], [Plain(n)] == [Plain(n)], p in [Plain(n)]]


def printed(x: float) -> str:
    xs: List[V] = [V(x)]
    d: Dict[str, Optional[V]] = {"a": V(x), "b": None}
    return f"{xs} {d} {(V(1.0), x)}"


CASES = [
    ("compare", (1.0, 1.0)),
    ("compare", (1.0, 2.0)),
    ("list_methods", (1.0,)),
    ("list_methods", (3.0,)),
    ("missing", (2.0,)),
    ("dict_keys", (1.0,)),
    ("dict_keys", (1.5,)),
    ("trees", (3,)),
    ("trees", (4,)),
    ("identity", (1,)),
    ("printed", (2.5,)),
]
