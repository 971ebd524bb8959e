# error: TypeCheckError
# line: 7
# match: takes at most 1 argument

def f(xs: List[int]) -> int:
    n = len(xs)
    return xs.__getitem__(0, n)


ENTRY = "f"
