from typing import List, Dict, Tuple, Optional, Set
from dataclasses import dataclass, field
from enum import Enum

class Shape:
    def area(self) -> float:
        raise NotImplementedError("area")
    def describe(self) -> str:
        return f"{type(self).__name__} with area {self.area():.2f}"

class Rect(Shape):
    def __init__(self, w: float, h: float):
        self.w = w
        self.h = h
    def area(self) -> float:
        return self.w * self.h

class Square(Rect):
    def __init__(self, s: float):
        super().__init__(s, s)

class Circle(Shape):
    def __init__(self, r: float):
        self.r = r
    def area(self) -> float:
        return 3.14159 * self.r ** 2

def names(n: int) -> List[str]:
    return [type(n).__name__, type(1.5).__name__, type("s").__name__, type([n]).__name__,
            type((n, "a")).__name__, type({"a": n}).__name__, type(None).__name__,
            type(Color.RED).__name__, type(Square(2.0)).__name__]


def shapes(n: float) -> List[str]:
    out: List[str] = []
    for s in [Rect(n, 2.0), Square(n), Circle(n)]:
        out.append(s.describe())
    return out

class Stack:
    def __init__(self):
        self.items: List[int] = []
    def push(self, x: int) -> None:
        self.items.append(x)
    def pop(self) -> int:
        if not self.items:
            raise IndexError("pop from empty stack")
        return self.items.pop()
    def __len__(self) -> int:
        return len(self.items)
    def __repr__(self) -> str:
        return f"Stack({self.items})"

def rpn(expr: str) -> int:
    st = Stack()
    for tok in expr.split():
        if tok.lstrip("-").isdigit():
            st.push(int(tok))
        else:
            b, a = st.pop(), st.pop()
            if tok == "+":
                st.push(a + b)
            elif tok == "-":
                st.push(a - b)
            elif tok == "*":
                st.push(a * b)
            else:
                raise ValueError(f"bad token {tok!r}")
    return st.pop()

@dataclass
class Account:
    owner: str
    balance: float = 0.0
    history: List[float] = field(default_factory=list)

    def deposit(self, amt: float) -> None:
        if amt <= 0:
            raise ValueError("deposit must be positive")
        self.balance += amt
        self.history.append(amt)

def bank(amts: List[float]) -> Tuple[float, int, str]:
    acc = Account("ann")
    errors = 0
    for a in amts:
        try:
            acc.deposit(a)
        except ValueError as e:
            errors += 1
    return acc.balance, errors, repr(acc)

class Color(Enum):
    RED = 1
    GREEN = 2
    BLUE = 3

def colors(n: int) -> List[str]:
    return [c.name.lower() for c in Color if c.value <= n]

class InsufficientFunds(Exception):
    pass

def withdraw(bal: int, amt: int) -> str:
    try:
        if amt > bal:
            raise InsufficientFunds(f"need {amt - bal} more")
        return f"ok {bal - amt}"
    except InsufficientFunds as e:
        return "error: " + str(e)

def gcd_all(xs: List[int]) -> int:
    import math
    g = 0
    for x in xs:
        g = math.gcd(g, x)
    return g

def primes(n: int) -> List[int]:
    sieve = [True] * (n + 1)
    sieve[0:2] = [False, False]
    for i in range(2, int(n ** 0.5) + 1):
        if sieve[i]:
            for j in range(i * i, n + 1, i):
                sieve[j] = False
    return [i for i, p in enumerate(sieve) if p]

def bsearch(xs: List[int], t: int) -> int:
    lo, hi = 0, len(xs) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if xs[mid] == t:
            return mid
        elif xs[mid] < t:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1

def memo_fib(n: int) -> int:
    cache: Dict[int, int] = {}
    def fib(k: int) -> int:
        if k < 2:
            return k
        if k in cache:
            return cache[k]
        v = fib(k - 1) + fib(k - 2)
        cache[k] = v
        return v
    return fib(n)

def group_by_len(words: List[str]) -> Dict[int, List[str]]:
    groups: Dict[int, List[str]] = {}
    for w in words:
        groups.setdefault(len(w), []).append(w)
    return dict(sorted(groups.items()))

def tuple_stuff(t: Tuple[int, str, float]) -> str:
    a, b, c = t
    return f"{a}-{b}-{c:.1f}" + str(len(t)) + str(t[::-1])

def set_ops(a: List[int], b: List[int]) -> Tuple[List[int], List[int], bool]:
    sa, sb = set(a), set(b)
    return sorted(sa & sb), sorted(sa ^ sb), sa.issubset(sb)

def opt_chain(d: Dict[str, Optional[int]], k: str) -> int:
    v = d.get(k)
    return v if v is not None else -1

def try_else(x: str) -> str:
    try:
        n = int(x)
    except ValueError:
        return "nan"
    else:
        return "int" if n >= 0 else "neg"
    finally:
        print("done", x)

CASES = [("names", (3,)), ("shapes", (2.0,)), ("rpn", ("3 4 + 2 *",)), ("rpn", ("1 +",)), ("rpn", ("1 2 /",)),
 ("bank", ([10.0, -5.0, 2.5],)), ("colors", (2,)), ("withdraw", (10, 3)), ("withdraw", (1, 3)),
 ("gcd_all", ([12, 18, 24],)), ("primes", (30,)), ("bsearch", ([1, 3, 5, 7], 5)), ("bsearch", ([1, 3], 4)),
 ("memo_fib", (30,)), ("group_by_len", (["a", "bb", "cc", "d", "eee"],)), ("tuple_stuff", ((1, "x", 2.25),)),
 ("set_ops", ([1, 2, 3], [2, 3, 4])), ("opt_chain", ({"a": 1, "b": None}, "b")), ("opt_chain", ({"a": 1}, "a")),
 ("try_else", ("12",)), ("try_else", ("x",))]
