from typing import Dict, List, Tuple


def stats(text: str) -> Dict[str, int]:
    lines = text.split("\n")
    words = text.split()
    chars = len(text)
    letters = len([c for c in text if c.isalpha()])
    return {"lines": len(lines), "words": len(words), "chars": chars, "letters": letters}


def top_letters(text: str, k: int) -> List[Tuple[str, int]]:
    counts: Dict[str, int] = {}
    for c in text.lower():
        if c.isalpha():
            counts[c] = counts.get(c, 0) + 1
    return sorted(list(counts.items()), key=lambda p: (-p[1], p[0]))[:k]


CASES = [("stats", ("hello world\nsecond line here\n",)), ("top_letters", ("Mississippi River", 3))]
