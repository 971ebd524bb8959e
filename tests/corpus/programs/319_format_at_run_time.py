from typing import List

PATTERN = "<{}|{:.2f}|{name!r}>"


def with_constant(n: int) -> str:
    return PATTERN.format(n, n / 3, name="c")


def built(width: int, items: List[str]) -> List[str]:
    row = "{:>" + str(width) + "}|{:<" + str(width) + "}"
    return [row.format(s, s.upper()) for s in items]


def given(fmt: str, n: int) -> str:
    return fmt.format(n, n * 2, k="key")


def joined(xs: List[int]) -> str:
    return " ".join(reversed([str(x) for x in xs])) + "/" + ",".join(map(str, xs))


CASES = [
    ("with_constant", (4,)),
    ("built", (5, ["ab", "c"])),
    ("given", ("{}+{}={k}", 3)),
    ("given", ("{1:04d} {0:x}", 255)),
    ("given", ("{2}", 1)),
    ("given", ("{missing}", 1)),
    ("given", ("{:d}", 1)),
    ("given", ("{", 1)),
    ("joined", ([1, 2, 3],)),
]
