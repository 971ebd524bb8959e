def hashes(x: int, y: float, s: str, b: bool) -> List[int]:
    return [hash(x), hash(-1), hash(2 ** 61 - 1), hash(-(2 ** 62)), hash(y), hash(-0.0),
            hash(s), hash(b), hash((x, s)), hash(float(x))]


def hash_is_stable(s: str) -> bool:
    t = s + ""
    return hash(s) == hash(t) and hash(1) == hash(1.0) and hash(True) == hash(1)


def unhashable(xs: List[int]) -> int:
    return hash(xs)


def radix(x: int) -> List[str]:
    return [bin(x), oct(x), hex(x), bin(-x), oct(-x), hex(-x), hex(x // 4096 + 255)]


def radix_bool(b: bool) -> str:
    return bin(b) + oct(b) + hex(b)


CASES = [
    ("hashes", (12345, 2.5, "ember", True)), ("hashes", (-7, float("inf"), "", False)),
    ("hashes", (0, float("nan"), "é", True)),
    ("hash_is_stable", ("abc",)),
    ("unhashable", ([1, 2],)),
    ("radix", (0,)), ("radix", (255,)), ("radix", (-9223372036854775807,)),
    ("radix_bool", (True,)), ("radix_bool", (False,)),
]
