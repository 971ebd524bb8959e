from typing import Dict, List, Tuple


def squares(n: int) -> List[int]:
    xs = []
    for i in range(n):
        xs.append(i * i)
    return xs


def halves(words: List[str]) -> Dict[str, float]:
    d = {}
    for w in words:
        d[w] = len(w) / 2
    return d


def countdown(n: int) -> Tuple[List[int], List[str]]:
    out = []
    labels = []
    i = 0
    while (left := n - i) > 0:
        out.append(left)
        labels.insert(0, str(left))
        i += 1
    return out, labels


CASES = [("squares", (4,)), ("squares", (0,)), ("halves", (["ab", "cde"],)),
         ("halves", ([],)), ("countdown", (3,)), ("countdown", (0,))]
