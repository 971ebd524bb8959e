def conv(s: str) -> tuple:
    i = int(s)
    f = float(s)
    return (i, f, str(i), str(f), str(True), int(True) + 1, float(3), bool(0))


def bad_int(s: str) -> int:
    return int(s)


CASES = [("conv", ("42",)), ("conv", ("-7",)), ("bad_int", ("4.5",)), ("bad_int", ("abc",))]
