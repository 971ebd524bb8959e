# error: NameResolutionError
# line: 9
# match: deleted by 'del total'


def f(xs: List[int]) -> int:
    total = sum(xs)
    del total
    return total


ENTRY = "f"
