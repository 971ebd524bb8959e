def chained(n: int) -> tuple:
    a = b = c = n
    a += 1
    x, y, z = 1, 2.5, "s"
    (p, q), r = (n, n * 2), n * 3
    first, second = [n, n + 1]
    return a, b, c, x, y, z, p, q, r, first, second


def bad_unpack(n: int) -> int:
    a, b = [n, n, n]
    return a + b


CASES = [("chained", (4,)), ("bad_unpack", (1,))]
