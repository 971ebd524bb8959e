def parts(x: float) -> Tuple[Tuple[float, float], Tuple[float, int], float]:
    return math.modf(x), math.frexp(x), math.ldexp(x, 3)


def int_math(a: int, b: int) -> List[int]:
    return [math.comb(a, b), math.perm(a, b), math.isqrt(a), math.lcm(a, b), pow(a, b, 7)]


def sums(xs: List[float], ys: List[int], bs: List[bool]) -> Tuple[float, float, int, int, int]:
    return math.fsum(xs), math.prod(xs), math.prod(ys), sum(ys, 10), sum(bs)


def floats(x: float, xs: List[float]) -> Tuple[bool, float, float]:
    return x.is_integer(), sum(xs, 0.5), math.dist(xs, [0.0] * len(xs))


def abs_bool(b: bool) -> Tuple[int, int]:
    return abs(b), abs(-3)


CASES = [("parts", (2.5,)), ("parts", (-0.375,)), ("parts", (0.0,)),
         ("int_math", (10, 3)), ("int_math", (5, 5)), ("int_math", (-1, 2)),
         ("sums", ([0.1, 0.2, 0.3], [2, 3], [True, False, True])),
         ("sums", ([], [], [])),
         ("floats", (3.0, [3.0, 4.0])), ("floats", (3.5, [])),
         ("abs_bool", (True,)), ("abs_bool", (False,))]
