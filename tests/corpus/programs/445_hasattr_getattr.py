class HasA:
    def __init__(self, v: int):
        self.v = v

    def m(self) -> int:
        return 2


def has(s: str, xs: List[int]) -> List[bool]:
    a = HasA(1)
    return [hasattr(a, "v"), hasattr(a, "m"), hasattr(a, "y"), hasattr(s, "upper"),
            hasattr(xs, "append"), hasattr(xs, "upper"), hasattr(3, "real"),
            hasattr(torch.ones(1), "shape"), hasattr(torch.ones(1), "no_such")]


def get(n: int) -> Tuple[int, int, str]:
    a = HasA(n)
    return getattr(a, "v"), getattr(a, "w", 7), str(getattr(a, "v", 0) + 1)


def call_through(n: int, s: str) -> Tuple[int, str, List[int]]:
    a = HasA(n)
    xs = [3, 1]
    getattr(xs, "sort")()
    return getattr(a, "m")() + n, getattr(s, "upper")(), xs


CASES = [
    ("call_through", (3, "ab")),
    ("has", ("a", [1])),
    ("get", (3,)),
]
