# error: NameResolutionError
# line: 13
# match: 'super' object has no attribute 'volume'


class Shape:
    def area(self) -> float:
        return 0.0


class Cube(Shape):
    def volume(self) -> float:
        return super().volume()


def f(x: float) -> float:
    return Cube().volume()


ENTRY = "f"
