from typing import Dict, List


def caesar(s: str, k: int) -> str:
    out = ""
    for c in s:
        if c.isalpha():
            base = ord("a") if c.islower() else ord("A")
            out += chr((ord(c) - base + k) % 26 + base)
        else:
            out += c
    return out


def anagram_groups(words: List[str]) -> List[List[str]]:
    groups: Dict[str, List[str]] = {}
    for w in words:
        key = "".join(sorted(list(w)))
        if key not in groups:
            groups[key] = []
        groups[key].append(w)
    return [g for g in groups.values() if len(g) > 1]


CASES = [("caesar", ("Hello, World!", 3)), ("caesar", ("abc", -1)),
         ("anagram_groups", (["eat", "tea", "tan", "ate", "nat", "bat"],))]
