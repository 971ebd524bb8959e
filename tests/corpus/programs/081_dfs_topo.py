from typing import Dict, List


def visit(node: str, graph: Dict[str, List[str]], state: Dict[str, int], out: List[str]) -> bool:
    st = state.get(node, 0)
    if st == 1:
        return False
    if st == 2:
        return True
    state[node] = 1
    for nb in graph.get(node, []):
        if not visit(nb, graph, state, out):
            return False
    state[node] = 2
    out.append(node)
    return True


def topo_sort(graph: Dict[str, List[str]]) -> List[str]:
    state: Dict[str, int] = {}
    out: List[str] = []
    for node in graph:
        if not visit(node, graph, state, out):
            raise ValueError("cycle detected at " + node)
    out.reverse()
    return out


CASES = [("topo_sort", ({"a": ["b", "c"], "b": ["d"], "c": ["d"], "d": []},)),
         ("topo_sort", ({"x": ["y"], "y": ["x"]},))]
