# error: TypeCheckError
# line: 20
# match: has type Shape, but is given a value of type Square


class Shape:
    def area(self) -> float:
        return 0.0


class Square(Shape):
    def __init__(self, side: float):
        self.side = side

    def area(self) -> float:
        return self.side * self.side


def f(x: float) -> float:
    s: Shape = Square(x)
    return s.area()


ENTRY = "f"
