from typing import List, Optional


class Shape:
    def __init__(self, name: str):
        self.name = name
        self.hits = 0

    def area(self) -> float:
        return 0.0

    def describe(self) -> str:
        self.hits += 1
        return self.name + ":" + str(self.area())

    def bigger(self, other: "Shape") -> bool:
        return self.area() > other.area()

    def __str__(self) -> str:
        return self.name + "!"

    def __lt__(self, other: "Shape") -> bool:
        return self.area() < other.area()


class Square(Shape):
    def __init__(self, side: float):
        super().__init__("square")
        self.side = side

    def area(self) -> float:
        return self.side * self.side


class Cube(Square):
    def area(self) -> float:
        return 6.0 * super().area()

    def __str__(self) -> str:
        return "cube of " + str(self.side)


class Circle(Shape):
    def __init__(self, r: float):
        super().__init__("circle")
        self.r = r

    def area(self) -> float:
        return 3.0 * self.r * self.r


def total(shapes: List[Shape]) -> float:
    s = 0.0
    for sh in shapes:
        s += sh.area()
    return s


def pick(k: int, x: float) -> Shape:
    if k == 0:
        return Square(x)
    if k == 1:
        return Circle(x)
    if k == 2:
        return Cube(x)
    return Shape("plain")


def describe_all(x: float) -> List[str]:
    out: List[str] = []
    for k in range(4):
        sh = pick(k, x)
        out.append(sh.describe())
        sh.name = sh.name.upper()
        out.append(sh.name + str(sh.hits))
    return out


def kinds(x: float) -> List[str]:
    out: List[str] = []
    shapes: List[Shape] = [Square(x), Circle(x), Cube(x), Shape("p")]
    for sh in shapes:
        if isinstance(sh, Square):
            out.append("sq" + str(sh.side))
        elif isinstance(sh, Circle):
            out.append("ci" + str(sh.r))
        else:
            out.append("other")
    return out


def biggest(x: float, y: float) -> List[bool]:
    a: Shape = Square(x)
    b: Optional[Shape] = None
    if y > 0:
        b = Circle(y)
    out = [Cube(x).bigger(a)]
    if b is not None:
        out.append(a.bigger(b))
        out.append(b.bigger(a))
    return out


def sizes(x: float) -> float:
    return total([Square(x), Circle(x), Cube(x)])


def ordered(x: float) -> List[str]:
    shapes: List[Shape] = [Cube(x), Circle(x), Shape("p"), Square(x)]
    return [str(s) for s in sorted(shapes)] + [f"{shapes[0]}", str(min(shapes))]


CASES = [("ordered", (1.0,)), ("describe_all", (2.0,)), ("kinds", (1.5,)), ("biggest", (2.0, 1.0)),
         ("biggest", (1.0, -1.0)), ("sizes", (0.5,))]
