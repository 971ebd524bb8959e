from typing import List


def prefix_function(p: str) -> List[int]:
    pi = [0] * len(p)
    k = 0
    for i in range(1, len(p)):
        while k > 0 and p[i] != p[k]:
            k = pi[k - 1]
        if p[i] == p[k]:
            k += 1
        pi[i] = k
    return pi


def kmp(text: str, pattern: str) -> List[int]:
    if not pattern:
        return []
    pi = prefix_function(pattern)
    out: List[int] = []
    k = 0
    for i, c in enumerate(text):
        while k > 0 and c != pattern[k]:
            k = pi[k - 1]
        if c == pattern[k]:
            k += 1
        if k == len(pattern):
            out.append(i - k + 1)
            k = pi[k - 1]
    return out


CASES = [("kmp", ("abababcabababab", "abab")), ("kmp", ("aaaa", "aa")), ("kmp", ("abc", ""))]
