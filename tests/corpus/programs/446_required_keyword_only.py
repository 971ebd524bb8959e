def pack(a: int, b: int = 1, *, c: int, d: int = 4) -> List[int]:
    return [a, b, c, d]


def scale(x: float, *, by: float, shift: float = 0.0) -> float:
    return x * by + shift


def calls(n: int) -> List[List[int]]:
    return [pack(n, c=3), pack(n, 2, c=5, d=6), pack(c=n, a=1), pack(n, d=0, c=9, b=7)]


def floats(x: float) -> List[float]:
    return [scale(x, by=2.0), scale(x, shift=1.0, by=3.0)]


CASES = [
    ("calls", (4,)),
    ("floats", (1.5,)),
]
