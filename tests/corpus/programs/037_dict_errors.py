from typing import Dict


def lookup(d: Dict[str, int], k: str) -> int:
    return d[k]


def pop_missing(d: Dict[int, str], k: int) -> str:
    return d.pop(k)


def delete(d: Dict[str, int], k: str) -> Dict[str, int]:
    del d[k]
    return d


CASES = [("lookup", ({"a": 1}, "a")), ("lookup", ({"a": 1}, "b")), ("pop_missing", ({1: "x"}, 2)),
         ("delete", ({"a": 1, "b": 2}, "a")), ("delete", ({}, "a"))]
