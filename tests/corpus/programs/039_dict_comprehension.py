from typing import Dict, List


def squares(n: int) -> Dict[int, int]:
    return {i: i * i for i in range(n) if i % 2 == 1}


def word_lengths(words: List[str]) -> Dict[str, int]:
    return {w: len(w) for w in words}


def group_by_len(words: List[str]) -> Dict[int, List[str]]:
    groups: Dict[int, List[str]] = {}
    for w in words:
        if len(w) not in groups:
            groups[len(w)] = []
        groups[len(w)].append(w)
    return groups


CASES = [("squares", (8,)), ("word_lengths", (["hi", "there", "hi"],)),
         ("group_by_len", (["a", "bb", "c", "dd", "eee"],))]
