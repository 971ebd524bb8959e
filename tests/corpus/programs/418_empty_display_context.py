from typing import Dict, List, Tuple


def shapes(n: int) -> Tuple[List[List[int]], Dict[str, List[float]], List[List[int]]]:
    rows = [[n], [], [n, n + 1]]
    cols = {"empty": [], "half": [n / 2]}
    pick = [] if n < 0 else [[n]]
    return rows, cols, pick


CASES = [("shapes", (3,)), ("shapes", (-1,))]
