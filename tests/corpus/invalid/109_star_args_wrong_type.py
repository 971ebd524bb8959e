# error: TypeCheckError
# line: 11
# match: argument of total()'s *args has type int


def total(*args: int) -> int:
    return len(args)


def f(n: int) -> int:
    return total(n, "two")


ENTRY = "f"
