def near_max(k: int) -> int:
    big = 9223372036854775807
    return big - k


def near_min(k: int) -> int:
    small = -9223372036854775807 - 1
    return small + k


def products(a: int, b: int) -> int:
    return (a * b) // (a + b)


CASES = [("near_max", (0,)), ("near_max", (5,)), ("near_min", (1,)),
         ("products", (3037000499, 3037000499))]
