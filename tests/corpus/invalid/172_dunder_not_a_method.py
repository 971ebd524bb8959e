# error: NameResolutionError
# line: 6
# match: has no method '__bool__'

def f(xs: List[int]) -> bool:
    return xs.__bool__()


ENTRY = "f"
