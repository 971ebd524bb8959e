from typing import Dict, List, Tuple


def frequencies(text: str) -> List[Tuple[str, int]]:
    counts: Dict[str, int] = {}
    for raw in text.lower().split():
        word = raw.strip(".,!?;:")
        if word:
            counts[word] = counts.get(word, 0) + 1
    items = list(counts.items())
    return sorted(items, key=lambda kv: (-kv[1], kv[0]))


CASES = [("frequencies", ("The cat and the hat. The END, the end!",)), ("frequencies", ("",))]
