from typing import Dict, List


def to_sparse(xs: List[float]) -> Dict[int, float]:
    return {i: x for i, x in enumerate(xs) if x != 0.0}


def sparse_dot(a: Dict[int, float], b: Dict[int, float]) -> float:
    if len(a) > len(b):
        a, b = b, a
    total = 0.0
    for k, v in a.items():
        if k in b:
            total += v * b[k]
    return total


def run(xs: List[float], ys: List[float]) -> float:
    return sparse_dot(to_sparse(xs), to_sparse(ys))


CASES = [("run", ([0.0, 1.5, 0.0, 2.0], [3.0, 2.0, 0.0, -1.0])), ("run", ([], [1.0]))]
