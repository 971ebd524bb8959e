def to_base(n: int, base: int) -> str:
    if base < 2 or base > 36:
        raise ValueError(f"base {base} out of range")
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    if n == 0:
        return "0"
    neg = n < 0
    n = abs(n)
    out = ""
    while n > 0:
        out = digits[n % base] + out
        n //= base
    return "-" + out if neg else out


def from_base(s: str, base: int) -> int:
    return int(s, base)


CASES = [("to_base", (255, 16)), ("to_base", (-10, 2)), ("to_base", (0, 7)), ("to_base", (5, 1)),
         ("from_base", ("ff", 16)), ("from_base", ("777", 8)), ("from_base", ("12", 2))]
