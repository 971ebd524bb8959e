# error: NameResolutionError
# line: 13
# match: has no attribute '__next__'

class A:
    def __init__(self):
        self.x = 1

    def __iter__(self) -> "A":
        return self

def g() -> int:
    for v in A():
        pass
    return 1


ENTRY = "g"
