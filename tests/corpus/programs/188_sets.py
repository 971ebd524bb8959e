from typing import Dict, List, Set, Tuple


def literal_order(n: int) -> List[int]:
    # iteration order is CPython's hash-table order, not insertion order
    s = {n, 8, 16, 1, 0, n + 40}
    return list(s)


def constant_literal() -> Tuple[List[int], List[int]]:
    s = {40, 8, 16, 1, 2, 3, 4, 5, 6, 7, 9, 32, 64}
    return sorted(s), list(s)


def from_list(xs: List[int]) -> Tuple[List[int], int, List[int]]:
    s = set(xs)
    return list(s), len(s), sorted(s, reverse=True)


def operators(a: List[int], b: List[int]) -> List[List[int]]:
    x, y = set(a), set(b)
    return [list(x | y), list(x & y), list(x - y), list(x ^ y)]


def comparisons(a: List[int], b: List[int]) -> List[bool]:
    x, y = set(a), set(b)
    return [x == y, x != y, x <= y, x < y, x >= y, x > y, x.issubset(y),
            x.issuperset(b), x.isdisjoint(y), bool(x), 3 in x, 3 not in y]


def methods(xs: List[int]) -> List[int]:
    s: Set[int] = set()
    for v in xs:
        s.add(v)
    s.discard(100)
    s.remove(xs[0])
    t = s.copy()
    t.update([77, 8])
    out = [len(s), len(t)]
    for v in t:
        out.append(v)
    out.append(t.pop())
    u = t.union([1000]).intersection({1000, 8, 9}).difference([9])
    out.extend(sorted(u))
    out.extend(sorted(t.symmetric_difference({8, 5})))
    t.clear()
    out.append(len(t))
    return out


def in_place(xs: List[int]) -> List[int]:
    s = set(xs)
    s |= {100}
    s -= {xs[0]}
    s &= {100, xs[1], xs[2]}
    s ^= {5}
    s.intersection_update([5, 100, xs[2]])
    s.difference_update({xs[2]})
    s.symmetric_difference_update([7])
    return list(s)


def comprehension(n: int) -> Tuple[List[int], List[str]]:
    return list({i * i % 7 for i in range(n)}), sorted({str(i % 3) for i in range(n) if i})


def strings(words: List[str]) -> Tuple[List[str], int, bool]:
    s = set(words)
    chars = set("".join(words))
    return sorted(s), len(chars), "a" in chars


def tuples(xs: List[int]) -> List[Tuple[int, str]]:
    return list({(x, str(x)) for x in xs})


def floats(xs: List[float]) -> List[float]:
    s = set(xs)
    return list(s) + [float(len(s))]


def dedupe(words: List[str]) -> List[str]:
    seen: Set[str] = set()
    out: List[str] = []
    for w in words:
        if w not in seen:
            seen.add(w)
            out.append(w)
    return out


def dedupe_inferred(words: List[str], xs: List[int]) -> Tuple[List[str], int]:
    seen = set()  # the element type comes from the first seen.add(...)
    out: List[str] = []
    for w in words:
        if w not in seen:
            seen.add(w)
            out.append(w)
    pairs = set()
    for x in xs:
        pairs.add((x % 2, x > 2))
    return out, len(pairs)


def printed(xs: List[int]) -> str:
    s = set(xs)
    e: Set[str] = set()
    return str(s) + " " + str(e) + " " + repr({"a"}) + f" {s}"


def passed_in(s: Set[int], x: int) -> Set[int]:
    s.add(x)
    return s


def from_dict(d: Dict[int, str]) -> List[int]:
    return list(set(d))


def remove_missing(xs: List[int]) -> int:
    s = set(xs)
    s.remove(99)
    return len(s)


def pop_empty(xs: List[int]) -> int:
    s = set(xs)
    s.clear()
    return s.pop()


def changed_during_iteration(xs: List[int]) -> int:
    s = set(xs)
    for v in s:
        s.add(v + 100)
    return len(s)


def reductions(xs: List[int]) -> Tuple[int, int, int, bool]:
    s = set(xs)
    return min(s), max(s), sum(s), any(v > 10 for v in s)


CASES = [
    ("literal_order", (3,)),
    ("literal_order", (-5,)),
    ("constant_literal", ()),
    ("from_list", ([33, 1, 9, 65, 1, 17],)),
    ("operators", ([1, 2, 3, 9, 17], [2, 3, 4, 25])),
    ("comparisons", ([1, 2], [1, 2, 3])),
    ("comparisons", ([3, 1], [1, 3])),
    ("methods", ([5, 1, 9, 33, 1],)),
    ("in_place", ([1, 2, 3, 4],)),
    ("comprehension", (10,)),
    ("strings", (["ab", "ba", "c", "ab"],)),
    ("tuples", ([1, 2, 1, 40],)),
    ("floats", ([0.5, 1.0, 0.5, -0.0, 0.0, 1e300],)),
    ("dedupe", (["x", "y", "x", "z", "y"],)),
    ("dedupe_inferred", (["x", "y", "x"], [1, 2, 3, 5])),
    ("printed", ([3, 1, 3],)),
    ("passed_in", ({1, 2}, 3)),
    ("from_dict", ({9: "a", 1: "b", 17: "c"},)),
    ("remove_missing", ([1],)),
    ("pop_empty", ([1],)),
    ("changed_during_iteration", ([1, 2],)),
    ("reductions", ([4, 12, 4],)),
]
