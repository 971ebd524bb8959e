from typing import List, Dict, Tuple, Optional, Set, Iterator
from dataclasses import dataclass
from enum import Enum, auto

class Suit(Enum):
    HEARTS = auto()
    SPADES = auto()

@dataclass(order=True)
class Card:
    rank: int
    suit: str

def cards(xs: List[int]) -> List[str]:
    cs = [Card(x, "h" if x % 2 else "s") for x in xs]
    cs.sort()
    return [f"{c.rank}{c.suit}" for c in cs] + [str(max(cs)), str(Card(1, "h") == Card(1, "h"))]

def suits() -> List[str]:
    return [s.name for s in Suit] + [str(Suit.HEARTS.value), str(Suit(2))]

def evens(n: int):
    i = 0
    while i < n:
        yield i
        i += 2

def pipeline(n: int) -> List[int]:
    sq = (x * x for x in evens(n))
    return [y for y in sq if y % 3 != 0]

def it_protocol(xs: List[str]) -> List[str]:
    it = iter(xs)
    out: List[str] = []
    while True:
        try:
            out.append(next(it).upper())
        except StopIteration:
            break
    return out

def set_comp(words: List[str]) -> List[str]:
    firsts = {w[0] for w in words if w}
    return sorted(firsts)

def frozen_key(pairs: List[Tuple[int, int]]) -> Dict[Tuple[int, int], int]:
    d: Dict[Tuple[int, int], int] = {}
    for a, b in pairs:
        key = (min(a, b), max(a, b))
        d[key] = d.get(key, 0) + 1
    return d

def zip_longest_manual(a: List[int], b: List[int]) -> List[Tuple[int, int]]:
    n = max(len(a), len(b))
    return [(a[i] if i < len(a) else 0, b[i] if i < len(b) else 0) for i in range(n)]

def any_all(xs: List[int]) -> Tuple[bool, bool, bool]:
    return any(x < 0 for x in xs), all(x != 0 for x in xs), all([])

def str_iter(s: str) -> Dict[str, int]:
    out: Dict[str, int] = {}
    for ch in s:
        if ch.isalpha():
            out[ch] = out.get(ch, 0) + 1
    return out

def slicing(s: str) -> List[str]:
    return [s[1:-1], s[::2], s[-3:], s[:100], s[5:2], s[::-2]]

def bool_ops(a: int, b: int) -> List[int]:
    return [a and b, a or b, int(not a), a & b, a | b, a ^ b, ~a, -a // 2 if b else 0]

CASES = [("cards", ([3, 1, 2],)), ("suits", ()), ("pipeline", (13,)), ("it_protocol", (["a", "b"],)),
 ("set_comp", (["apple", "avocado", "", "banana"],)), ("frozen_key", ([(1, 2), (2, 1), (3, 3)],)),
 ("zip_longest_manual", ([1, 2, 3], [4],)), ("any_all", ([1, -2, 3],)), ("str_iter", ("hello, world",)),
 ("slicing", ("abcdefgh",)), ("bool_ops", (6, 3)), ("bool_ops", (0, 3))]
