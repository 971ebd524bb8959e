def check(n: int) -> int:
    torch._check(n > 0, "n must be positive")
    torch._check(cond=n < 100)
    return n


def unwrap(o: Optional[int]) -> int:
    return torch.jit._unwrap_optional(o) + 1


def jit_isinstance(x: Optional[List[int]]) -> int:
    if torch.jit.isinstance(x, List[int]):
        return len(x)
    return -1


def many_args(n: int) -> int:
    if n > 1:
        raise ValueError("bad", n, [n])
    raise KeyError(n, "x")


@torch.jit.ignore
def helper(x: int) -> int:
    return x * 3


def ignored(x: int) -> int:
    return helper(x) + 1


def prefixes(s: str) -> Tuple[bool, bool]:
    return s.startswith(("ab", "x")), s.endswith(("z", "yz"), 1)


CASES = [("check", (5,)), ("check", (200,)),
         ("unwrap", (4,)), ("unwrap", (None,)), ("jit_isinstance", ([1, 2],)),
         ("jit_isinstance", (None,)), ("many_args", (2,)), ("many_args", (0,)),
         ("ignored", (4,)), ("prefixes", ("abxyz",)), ("prefixes", ("q",))]
