from typing import Dict


def lookup(d: Dict[str, int], k: str) -> int:
    try:
        return d[k]
    except KeyError as e:
        raise ValueError("no entry " + k) from e


def quiet(n: int) -> int:
    try:
        return 10 // n
    except ZeroDivisionError:
        raise RuntimeError("n must not be zero") from None


def from_class(n: int) -> int:
    if n < 0:
        raise ValueError("negative") from TypeError
    return n


def caught(n: int) -> str:
    try:
        quiet(n)
        return "ok"
    except RuntimeError as e:
        return "caught: " + str(e)


CASES = [
    ("lookup", ({"a": 1}, "a")),
    ("lookup", ({"a": 1}, "b")),
    ("quiet", (5,)),
    ("quiet", (0,)),
    ("from_class", (-1,)),
    ("from_class", (2,)),
    ("caught", (0,)),
    ("caught", (1,)),
]
