from typing import List


def process(words: List[str]) -> List[str]:
    out: List[str] = []
    for w in sorted(words):
        if w in out:
            continue
        out.append(w)
    return out


def lengths(words: List[str]) -> List[int]:
    return [len(w) for w in words]


def longest(words: List[str]) -> str:
    best = ""
    for w in words:
        if len(w) > len(best):
            best = w
    return best


CASES = [("process", (["pear", "apple", "pear", "fig"],)), ("lengths", (["", "ab", "cde"],)),
         ("longest", (["a", "abc", "ab"],))]
