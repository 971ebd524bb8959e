from typing import Dict, List


def records(n: int) -> List[Dict[str, int]]:
    return [{"id": i, "sq": i * i, "parity": i % 2} for i in range(n)]


def select(rows: List[Dict[str, int]], key: str, value: int) -> List[int]:
    return [r["id"] for r in rows if r.get(key, -1) == value]


def pipeline(n: int) -> List[int]:
    return select(records(n), "parity", 1)


CASES = [("records", (3,)), ("pipeline", (7,))]
