from dataclasses import InitVar, dataclass


@dataclass
class Scaled:
    x: float
    factor: InitVar[float] = 2.0
    label: str = ""
    scaled: float = 0.0

    def __post_init__(self, factor: float):
        self.scaled = self.x * factor


@dataclass(order=True)
class Span:
    lo: int
    hi: int
    pad: InitVar[int] = 0

    def __post_init__(self, pad: int):
        self.lo -= pad
        self.hi += pad


def scaled(x: float) -> Tuple[float, float, str, float]:
    a = Scaled(x)
    b = Scaled(x, 3.0, "b")
    return a.scaled, b.scaled, repr(b), Scaled.factor


def spans(n: int) -> Tuple[List[str], bool]:
    s = [Span(1, 2, n), Span(0, 5), Span(1, 2)]
    return [repr(v) for v in sorted(s)], Span(1, 2, 0) == Span(1, 2)


CASES = [
    ("scaled", (1.5,)), ("scaled", (-2.0,)),
    ("spans", (1,)), ("spans", (0,)),
]
