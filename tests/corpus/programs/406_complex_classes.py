from typing import Dict, List, NamedTuple, Optional


class Phasor:
    def __init__(self, r: float, quarter_turns: float):
        self.z = complex(r, 0.0) * (1j ** quarter_turns)

    def rotate(self, k: int) -> complex:
        self.z = self.z * 1j ** k
        return self.z

    def __str__(self) -> str:
        return f"Phasor({self.z})"


class Pair(NamedTuple):
    a: complex
    b: Optional[complex]


def use(r: float, k: int, z: Optional[complex] = None) -> List[complex]:
    p = Phasor(r, 1.0)
    q = Pair(p.rotate(k), z)
    out = [q.a, p.z]
    b = q.b
    if b is not None:
        out.append(b * 2)
    return out


def shown(r: float) -> str:
    return str(Phasor(r, 0.5))


def table(zs: List[complex]) -> Dict[str, complex]:
    d: Dict[str, complex] = {}
    for i, z in enumerate(zs):
        d[str(i)] = z.conjugate()
    return d


CASES = [("use", (2.0, 3)), ("use", (1.5, -1, 1 - 1j)), ("use", (-0.0, 2, complex(-0.0, 0.0))),
         ("shown", (2.0,)), ("table", ([1j, 2 - 3j],)), ("table", ([],))]
