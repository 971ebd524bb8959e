from typing import List, Tuple


def to_roman(n: int) -> str:
    table: List[Tuple[int, str]] = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"),
                                    (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"),
                                    (5, "V"), (4, "IV"), (1, "I")]
    if n <= 0:
        raise ValueError("roman numerals need a positive number")
    out = ""
    for value, sym in table:
        while n >= value:
            out += sym
            n -= value
    return out


def from_roman(s: str) -> int:
    vals = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
    total = 0
    for i in range(len(s)):
        v = vals[s[i]]
        if i + 1 < len(s) and vals[s[i + 1]] > v:
            total -= v
        else:
            total += v
    return total


CASES = [("to_roman", (1994,)), ("to_roman", (3888,)), ("to_roman", (0,)),
         ("from_roman", ("MCMXCIV",)), ("from_roman", ("MMXQ",))]
