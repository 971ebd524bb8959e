def compare(a: str, b: str) -> list[bool]:
    return [a < b, a <= b, a > b, a == b, a != b, a + b == b + a, a * 2 < b * 3]


def build(n: int) -> str:
    s = ""
    for i in range(n):
        s += str(i) + ("," if i < n - 1 else "")
    return s


CASES = [("compare", ("apple", "banana")), ("compare", ("b", "ab")), ("compare", ("", "")),
         ("build", (5,)), ("build", (0,))]
