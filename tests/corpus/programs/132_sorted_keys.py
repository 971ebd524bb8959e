from typing import Dict, List, Tuple


def by_value(d: Dict[str, int]) -> List[str]:
    return [k for k, _ in sorted(list(d.items()), key=lambda kv: kv[1])]


def by_length_then_alpha(words: List[str]) -> List[str]:
    return sorted(words, key=lambda w: (len(w), w))


def stable(pairs: List[Tuple[int, str]]) -> List[Tuple[int, str]]:
    return sorted(pairs, key=lambda p: p[0])


CASES = [("by_value", ({"a": 3, "b": 1, "c": 2},)), ("by_length_then_alpha", (["bb", "a", "ab", "c"],)),
         ("stable", ([(2, "x"), (1, "y"), (2, "a"), (1, "b")],))]
