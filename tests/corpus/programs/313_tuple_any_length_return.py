def pair(n: int) -> Tuple[int, ...]:
    return (n, n * n)


def triple(s: str) -> Tuple[str, ...]:
    return s, s.upper(), s[::-1]


def empty() -> tuple:
    return ()


CASES = [("pair", (3,)), ("triple", ("ab",)), ("empty", ())]
