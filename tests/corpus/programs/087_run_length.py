from typing import List, Tuple


def encode(s: str) -> str:
    if not s:
        return ""
    out = ""
    prev = s[0]
    count = 1
    for c in s[1:]:
        if c == prev:
            count += 1
        else:
            out += f"{count}{prev}"
            prev = c
            count = 1
    return out + f"{count}{prev}"


def decode(s: str) -> str:
    out = ""
    num = ""
    for c in s:
        if c.isdigit():
            num += c
        else:
            out += c * int(num)
            num = ""
    return out


def roundtrip(s: str) -> Tuple[str, bool]:
    e = encode(s)
    return e, decode(e) == s


CASES = [("roundtrip", ("aaabccdddd",)), ("roundtrip", ("",)), ("roundtrip", ("abc",)),
         ("decode", ("12x1y",))]
