from typing import List, Tuple


def find(parent: List[int], x: int) -> int:
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


def components(n: int, edges: List[Tuple[int, int]]) -> int:
    parent = list(range(n))
    rank = [0] * n
    count = n
    for a, b in edges:
        ra = find(parent, a)
        rb = find(parent, b)
        if ra == rb:
            continue
        if rank[ra] < rank[rb]:
            ra, rb = rb, ra
        parent[rb] = ra
        if rank[ra] == rank[rb]:
            rank[ra] += 1
        count -= 1
    return count


CASES = [("components", (6, [(0, 1), (1, 2), (3, 4)])), ("components", (3, [])),
         ("components", (4, [(0, 1), (1, 0), (2, 3), (3, 2)]))]
