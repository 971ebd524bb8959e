from typing import List, Tuple


def squares(n: int):
    for i in range(n):
        yield i * i


def collect(n: int) -> Tuple[List[int], List[float], List[Tuple[int, str]], List[int]]:
    from_gen = []
    for v in squares(n):
        from_gen.append(v)
    halves = []
    for v in squares(n):
        halves.append(v / 2)
    pairs = []
    for k in range(n):
        pairs.insert(0, (k, str(k)))
    flat = []
    flat.extend([n, n + 1])
    return from_gen, halves, pairs, flat


CASES = [("collect", (4,)), ("collect", (0,))]
