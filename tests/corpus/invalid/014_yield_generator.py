# error: TypeCheckError
# line: 5
# match: its return annotation must be Iterator[T]

def f(n: int) -> int:
    for i in range(n):
        yield i
    return 0


ENTRY = "f"
