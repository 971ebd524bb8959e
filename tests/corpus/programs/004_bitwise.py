def bits(a: int, b: int) -> tuple:
    return (a & b, a | b, a ^ b, ~a, a << 3, a >> 1, -a >> 2, (a ^ b) & 0xFF)


def popcount(n: int) -> int:
    count = 0
    while n:
        count += n & 1
        n >>= 1
    return count


CASES = [("bits", (12, 10)), ("bits", (-5, 3)), ("popcount", (255,)), ("popcount", (0,)),
         ("popcount", (1023456,))]
