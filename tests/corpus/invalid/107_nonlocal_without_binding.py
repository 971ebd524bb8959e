# error: NameResolutionError
# line: 7
# match: no binding for nonlocal 'count'


def f(n: int) -> int:
    def inc() -> None:
        nonlocal count
        count += 1
    inc()
    return n


ENTRY = "f"
