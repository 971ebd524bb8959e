"""Small Python programs as CompilationUnit sources: parsing key=value lines, pair search,
a sieve, bracket matching, Optional tuples in a loop, statistics with generators, a
memoized closure, word counts sorted by a key."""

import torch
CASES = [
('''
def f(text: str):
    lines = text.splitlines()
    result = {}
    for line in lines:
        if not line.strip():
            continue
        key, _, value = line.partition("=")
        result[key.strip()] = value.strip()
    return result
''', [("a = 1\\n\\nb=two\\n",)]),
('''
def f(xs: List[int]):
    pairs = []
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            if xs[i] + xs[j] == 10:
                pairs.append((xs[i], xs[j]))
    return pairs
''', [([1, 9, 5, 5, 3, 7],)]),
('''
def f(n: int):
    primes = []
    sieve = [True] * (n + 1)
    for p in range(2, n + 1):
        if sieve[p]:
            primes.append(p)
            for q in range(p * p, n + 1, p):
                sieve[q] = False
    return primes
''', [(30,)]),
('''
def f(s: str):
    stack = []
    pairs = {")": "(", "]": "["}
    for ch in s:
        if ch in "([":
            stack.append(ch)
        elif ch in pairs:
            if not stack or stack.pop() != pairs[ch]:
                return False
    return not stack
''', [("([])",), ("(]",), ("((",)]),
('''
def f(m: Dict[str, List[int]]):
    best = None
    for k, v in m.items():
        s = sum(v)
        if best is None or s > best[1]:
            best = (k, s)
    return best
''', [({"a": [1, 2], "b": [5]},), ({},)]),
('''
def f(xs: List[float]):
    mean = sum(xs) / len(xs)
    var = sum((x - mean) ** 2 for x in xs) / len(xs)
    return round(mean, 3), round(var ** 0.5, 3), sorted(xs)[len(xs) // 2]
''', [([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0],)]),
('''
def f(n: int):
    memo = {0: 0, 1: 1}
    def fib(k: int) -> int:
        if k in memo:
            return memo[k]
        memo[k] = fib(k - 1) + fib(k - 2)
        return memo[k]
    return fib(n), len(memo)
''', [(20,)]),
('''
def f(words: List[str]):
    counts = {}
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    top = sorted(counts, key=lambda w: (-counts[w], w))[:2]
    return top, max(counts.values()) if counts else 0
''', [(["b", "a", "b", "c", "a", "b"],)]),
]
