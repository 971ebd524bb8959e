from typing import List, NamedTuple


class Point(NamedTuple):
    x: float
    y: float


class Labeled(NamedTuple):
    name: str
    value: int = 0


def norm(p: Point) -> float:
    return (p.x ** 2 + p.y ** 2) ** 0.5


def make(n: int) -> List[Point]:
    return [Point(float(i), float(i * i)) for i in range(n)]


def unpack(p: Point) -> float:
    x, y = p
    return x - y + p[0]


def labels(n: int) -> List[Labeled]:
    return [Labeled("a"), Labeled("b", n), Labeled(value=3, name="c")]


CASES = [("norm", (Point(3.0, 4.0),)), ("make", (3,)), ("unpack", (Point(1.0, 2.0),)),
         ("labels", (7,))]
