# error: TypeCheckError
# line: 15
# match: 'with' needs torch.no_grad() or an object whose class defines __enter__ and __exit__


class Half:
    def __init__(self):
        self.n = 0

    def __enter__(self) -> int:
        return 1


def f() -> int:
    with Half() as h:
        return h


ENTRY = "f"
