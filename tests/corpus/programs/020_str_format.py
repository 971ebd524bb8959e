def formats(a: int, b: float, c: str) -> list[str]:
    return ["{} {} {}".format(a, b, c), "{0} {0} {1}".format(a, c), "{:>6}|{:<6}|".format(a, c),
            "{:.3f}".format(b), "{x} and {y}".format(x=a, y=c), "{!r}".format(c),
            "{:08.2f}".format(b), "{:,}".format(a * 1000)]


def percent(a: int, b: float) -> str:
    return "%d items at %.2f each (%s)" % (a, b, "ok")


CASES = [("formats", (7, 2.5, "x")), ("formats", (-3, 1e-5, "quote's")), ("percent", (3, 9.999))]
