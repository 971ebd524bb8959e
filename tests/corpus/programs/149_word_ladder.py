from typing import Dict, List


def neighbors(word: str, words: List[str]) -> List[str]:
    out: List[str] = []
    for w in words:
        if len(w) != len(word):
            continue
        diff = 0
        for a, b in zip(w, word):
            if a != b:
                diff += 1
        if diff == 1:
            out.append(w)
    return out


def ladder(start: str, end: str, words: List[str]) -> int:
    dist: Dict[str, int] = {start: 1}
    queue = [start]
    i = 0
    while i < len(queue):
        w = queue[i]
        i += 1
        if w == end:
            return dist[w]
        for nb in neighbors(w, words):
            if nb not in dist:
                dist[nb] = dist[w] + 1
                queue.append(nb)
    return 0


WORDS = ["hot", "dot", "dog", "lot", "log", "cog"]
CASES = [("ladder", ("hit", "cog", WORDS)), ("ladder", ("hit", "xyz", WORDS))]
