from typing import Dict, List


def invert_index(docs: List[str]) -> Dict[str, List[int]]:
    index: Dict[str, List[int]] = {}
    for i, doc in enumerate(docs):
        for word in doc.split():
            if word not in index:
                index[word] = []
            if not index[word] or index[word][-1] != i:
                index[word].append(i)
    return index


def merge_counts(a: Dict[str, int], b: Dict[str, int]) -> Dict[str, int]:
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0) + v
    return out


CASES = [("invert_index", (["a b a", "b c", "c a"],)),
         ("merge_counts", ({"x": 1, "y": 2}, {"y": 5, "z": 1}))]
