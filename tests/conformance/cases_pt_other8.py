"""PyTorch's test_dataclasses.py checkScript cases (a dataclass with order=True whose
__post_init__ sets an Optional tensor field, InitVar parameters, a user __eq__ kept over
the generated one), as CompilationUnit sources with inputs in place of the tests'
hypothesis-drawn floats."""

POINT = '''
from dataclasses import dataclass


@dataclass(order=True)
class Point:
    x: float
    y: float
    norm: Optional[torch.Tensor] = None

    def __post_init__(self):
        self.norm = (torch.tensor(self.x) ** 2 + torch.tensor(self.y) ** 2) ** 0.5
'''
XY = [(1.0, 2.0), (0.0, 0.0), (-3.5, 4.25), (1e4, -1e4)]

CASES = [
('''
from dataclasses import dataclass, InitVar


@dataclass(order=True)
class Point2:
    x: float
    y: float
    norm_p: InitVar[int] = 2
    norm: Optional[torch.Tensor] = None

    def __post_init__(self, norm_p: int):
        self.norm = (
            torch.tensor(self.x) ** norm_p + torch.tensor(self.y) ** norm_p
        ) ** (1 / norm_p)


def fn(x: float, y: float, p: int):
    pt = Point2(x, y, p)
    return pt.norm
''', [(1.0, 2.0, 3), (2.0, 0.5, 2)]),
(POINT + '''

def fn(x: float, y: float):
    pt = Point(x, y)
    return pt.norm
''', XY),
(POINT + '''

def compare(x1: float, y1: float, x2: float, y2: float):
    pt1 = Point(x1, y1)
    pt2 = Point(x2, y2)
    return (
        pt1 == pt2,
        pt1 < pt2,
        pt1 <= pt2,
        pt1 > pt2,
        pt1 >= pt2,
    )
''', [(1.0, 2.0, 1.0, 3.0), (2.0, 1.0, 1.0, 5.0), (-1.5, 0.0, -1.5, -2.0)]),
('''
from dataclasses import dataclass


@dataclass
class CustomEq:
    a: int
    b: int

    def __eq__(self, other: "CustomEq") -> bool:
        return self.a == other.a  # ignore the b field


def fn(a: int, b1: int, b2: int):
    pt1 = CustomEq(a, b1)
    pt2 = CustomEq(a, b2)
    return pt1 == pt2
''', [(1, 2, 3)]),
]
