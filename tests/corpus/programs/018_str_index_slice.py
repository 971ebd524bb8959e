def slices(s: str) -> list[str]:
    return [s[0], s[-1], s[1:4], s[:3], s[3:], s[::-1], s[::2], s[-3:-1], s[10:20], s[:-100]]


def char_at(s: str, i: int) -> str:
    return s[i]


CASES = [("slices", ("abcdefgh",)), ("char_at", ("abc", 5)), ("char_at", ("abc", -3)),
         ("slices", ("xy",))]
