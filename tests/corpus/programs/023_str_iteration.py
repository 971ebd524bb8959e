from typing import Dict


def char_counts(s: str) -> Dict[str, int]:
    counts: Dict[str, int] = {}
    for ch in s:
        counts[ch] = counts.get(ch, 0) + 1
    return counts


def vowels(s: str) -> int:
    n = 0
    for ch in s.lower():
        if ch in "aeiou":
            n += 1
    return n


def positions(s: str, target: str) -> list[int]:
    return [i for i, c in enumerate(s) if c == target]


CASES = [("char_counts", ("mississippi",)), ("vowels", ("Programming Language",)),
         ("positions", ("banana", "a")), ("char_counts", ("",))]
