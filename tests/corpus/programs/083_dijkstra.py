from typing import Dict, List, Tuple


def dijkstra(n: int, edges: List[Tuple[int, int, float]], src: int) -> List[float]:
    adj: Dict[int, List[Tuple[int, float]]] = {}
    for a, b, w in edges:
        if a not in adj:
            adj[a] = []
        adj[a].append((b, w))
    inf = float("inf")
    dist = [inf] * n
    dist[src] = 0.0
    done = [False] * n
    for _ in range(n):
        best = -1
        for v in range(n):
            if not done[v] and (best == -1 or dist[v] < dist[best]):
                best = v
        if best == -1 or dist[best] == inf:
            break
        done[best] = True
        for nb, w in adj.get(best, []):
            if dist[best] + w < dist[nb]:
                dist[nb] = dist[best] + w
    return dist


CASES = [("dijkstra", (5, [(0, 1, 4.0), (0, 2, 1.0), (2, 1, 2.0), (1, 3, 1.0), (2, 3, 5.0)], 0))]
