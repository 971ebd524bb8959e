# error: NameResolutionError
# line: 21
# match: 'Shape' object has no attribute 'side'


class Shape:
    def area(self) -> float:
        return 0.0


class Square(Shape):
    def __init__(self, side: float):
        self.side = side

    def area(self) -> float:
        return self.side * self.side


def f(x: float) -> float:
    s: Shape = Square(x) if x > 0 else Shape()
    return s.side


ENTRY = "f"
