# error: NameResolutionError
# line: 7
# match: unknown type 'Lst'


def f(n: int) -> List[int]:
    xs = torch.jit.annotate(Lst[int], [])
    return xs


ENTRY = "f"
