# error: TypeCheckError
# line: 7
# match: 'with' needs torch.no_grad() or an object whose class defines __enter__ and __exit__


def f(xs: List[int]) -> int:
    with xs as ys:
        return len(ys)


ENTRY = "f"
