from typing import List, Dict, Tuple, Optional

class Vec:
    def __init__(self, x: float, y: float):
        self.x = x
        self.y = y
    def __add__(self, o: "Vec") -> "Vec":
        return Vec(self.x + o.x, self.y + o.y)
    def __mul__(self, k: float) -> "Vec":
        return Vec(self.x * k, self.y * k)
    def __eq__(self, o: "Vec") -> bool:
        return self.x == o.x and self.y == o.y
    def __repr__(self) -> str:
        return f"Vec({self.x}, {self.y})"
    def __lt__(self, o: "Vec") -> bool:
        return (self.x, self.y) < (o.x, o.y)
    def __hash__(self) -> int:
        return hash((self.x, self.y))

def vecs(a: float) -> List[str]:
    v = Vec(a, 1.0) + Vec(2.0, 3.0) * 2
    vs = sorted([Vec(3.0, 1.0), v, Vec(0.0, 0.0)])
    return [repr(v), str(vs), str(v == Vec(a + 4.0, 7.0)), str(Vec(1.0, 2.0) in vs)]

class Matrix:
    def __init__(self, rows: List[List[float]]):
        self.rows = rows
    def __getitem__(self, ij: Tuple[int, int]) -> float:
        return self.rows[ij[0]][ij[1]]
    def __len__(self) -> int:
        return len(self.rows)
    def transpose(self) -> "Matrix":
        n, m = len(self.rows), len(self.rows[0])
        return Matrix([[self.rows[i][j] for i in range(n)] for j in range(m)])

def mat(r: List[List[float]]) -> Tuple[float, int, List[List[float]]]:
    m = Matrix(r)
    return m[0, 1], len(m), m.transpose().rows

class Node:
    def __init__(self, val: int, nxt: Optional["Node"] = None):
        self.val = val
        self.nxt = nxt

def linked(xs: List[int]) -> List[int]:
    head: Optional[Node] = None
    for x in reversed(xs):
        head = Node(x, head)
    out: List[int] = []
    cur = head
    while cur is not None:
        out.append(cur.val)
        cur = cur.nxt
    return out

class Counter:
    count: int = 0
    def __init__(self):
        self.items: Dict[str, int] = {}
    def add(self, k: str) -> "Counter":
        self.items[k] = self.items.get(k, 0) + 1
        return self
    def most(self) -> List[Tuple[str, int]]:
        return sorted(self.items.items(), key=lambda kv: -kv[1])

def count_chain(ws: List[str]) -> List[Tuple[str, int]]:
    c = Counter()
    for w in ws:
        c.add(w).add(w.upper())
    return c.most()[:3]

class Temp:
    def __init__(self, c: float):
        self._c = c
    @property
    def f(self) -> float:
        return self._c * 9 / 5 + 32
    @staticmethod
    def from_f(f: float) -> "Temp":
        return Temp((f - 32) * 5 / 9)

def temps(c: float) -> Tuple[float, float]:
    return Temp(c).f, round(Temp.from_f(212.0)._c, 6)

CASES = [("vecs", (1.0,)), ("mat", ([[1.0, 2.0], [3.0, 4.0]],)), ("linked", ([1, 2, 3],)), ("linked", ([],)),
 ("count_chain", (["a", "b", "a"],)), ("temps", (100.0,))]
