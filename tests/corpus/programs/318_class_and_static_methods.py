from typing import List, Tuple


class Temperature:
    SCALE = "C"
    OFFSET = 0.0

    def __init__(self, degrees: float):
        self.degrees = degrees

    @classmethod
    def parse(cls, text: str) -> "Temperature":
        if not text.endswith(cls.SCALE):
            raise ValueError("expected a temperature in " + cls.SCALE + ": " + text)
        return cls(float(text[:-1]) - cls.OFFSET)

    @classmethod
    def zero(cls):
        return cls.parse("0" + cls.SCALE)

    @staticmethod
    def average(ts: List[float]) -> float:
        return sum(ts) / len(ts)

    def show(self) -> str:
        return f"{self.degrees:.1f}{self.SCALE}"


class Kelvin(Temperature):
    SCALE = "K"
    OFFSET = 273.15

    def show(self) -> str:
        return "kelvin " + super().show()


def parse(s: str) -> Tuple[str, float]:
    t = Temperature.parse(s)
    return t.show(), t.degrees


def kelvin(s: str) -> Tuple[str, float, bool, bool]:
    k = Kelvin.parse(s)
    return k.show(), k.degrees, isinstance(k, Kelvin), isinstance(Kelvin.zero(), Kelvin)


def through_instances(n: int) -> List[str]:
    t = Temperature(float(n))
    out = [t.parse("3C").show(), t.zero().show(), Kelvin.zero().show()]
    out.append(str(Temperature.average([1.0, 2.0, float(n)])))
    out.append(str(t.average([float(n)])))
    return out


CASES = [
    ("parse", ("21.5C",)),
    ("parse", ("70F",)),
    ("kelvin", ("300K",)),
    ("kelvin", ("20C",)),
    ("through_instances", (4,)),
]
