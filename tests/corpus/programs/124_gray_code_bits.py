from typing import List


def gray(n: int) -> List[int]:
    return [i ^ (i >> 1) for i in range(1 << n)]


def to_binary(n: int, width: int) -> str:
    out = ""
    for i in range(width - 1, -1, -1):
        out += "1" if (n >> i) & 1 else "0"
    return out


def reverse_bits(n: int, width: int) -> int:
    r = 0
    for _ in range(width):
        r = (r << 1) | (n & 1)
        n >>= 1
    return r


CASES = [("gray", (3,)), ("to_binary", (10, 6)), ("reverse_bits", (0b1101, 8))]
