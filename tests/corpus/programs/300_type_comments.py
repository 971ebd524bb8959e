def add(x, y):
    # type: (int, float) -> float
    return x + y


def no_return_type(x, y):
    # type: (int, int)
    return x * y


def containers(xs, d):
    # type: (List[int], Dict[str, Tuple[int, float]]) -> Optional[float]
    if len(xs) == 0:
        return None
    return d["a"][1] * xs[0]


def per_parameter(a,  # type: str
                  n,  # type: int
                  ):
    # type: (...) -> List[str]
    return [a] * n


def per_parameter_no_return(a,  # type: float
                            b  # type: bool
                            ):
    return a if b else -a


def same_line(s, k):  # type: (str, int) -> str
    return s[k:] + s[:k]


def annotation_wins(x: int, y):
    # type: (int, str) -> str
    return y * x


class Scaler:
    def __init__(self, factor):
        # type: (float) -> None
        self.factor = factor

    def apply(self, xs):
        # type: (List[float]) -> List[float]
        return [x * self.factor for x in xs]


def use_class(f, xs):
    # type: (float, List[float]) -> List[float]
    return Scaler(f).apply(xs)


def nothing():
    # type: () -> int
    return 7


def ignored(x: int) -> int:
    # type: ignore
    return x + 1


CASES = [
    ("add", (1, 2.5)),
    ("no_return_type", (6, 7)),
    ("containers", ([2, 3], {"a": (1, 1.5)})),
    ("containers", ([], {"a": (1, 1.5)})),
    ("per_parameter", ("ab", 3)),
    ("per_parameter_no_return", (2.5, False)),
    ("same_line", ("hello", 2)),
    ("annotation_wins", (3, "xy")),
    ("use_class", (2.0, [1.0, 2.5])),
    ("nothing", ()),
    ("ignored", (4,)),
]
