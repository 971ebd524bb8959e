from typing import Dict, List


def bfs(graph: Dict[int, List[int]], start: int) -> List[int]:
    seen: Dict[int, bool] = {start: True}
    queue = [start]
    order: List[int] = []
    head = 0
    while head < len(queue):
        node = queue[head]
        head += 1
        order.append(node)
        for nb in graph.get(node, []):
            if nb not in seen:
                seen[nb] = True
                queue.append(nb)
    return order


def shortest_path_len(graph: Dict[int, List[int]], a: int, b: int) -> int:
    dist: Dict[int, int] = {a: 0}
    frontier = [a]
    while frontier:
        nxt: List[int] = []
        for node in frontier:
            for nb in graph.get(node, []):
                if nb not in dist:
                    dist[nb] = dist[node] + 1
                    nxt.append(nb)
        frontier = nxt
    return dist.get(b, -1)


G = {1: [2, 3], 2: [4], 3: [4, 5], 4: [6], 5: [6], 6: []}
CASES = [("bfs", (G, 1)), ("shortest_path_len", (G, 1, 6)), ("shortest_path_len", (G, 6, 1))]
