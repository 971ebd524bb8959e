from typing import List, Optional, Tuple, Union


def printed(z: complex) -> str:
    print(z, -z, [z], (z, 1))
    return "{} {!r} {:.1f} {:>12}".format(z, z, z, z) + " %s %r" % (z, z)


def maybe(z: Optional[complex], k: int) -> complex:
    if z is not None:
        return z * k
    return 0j


def either(v: Union[int, complex]) -> str:
    if isinstance(v, complex):
        return "complex " + str(v.conjugate())
    return "int " + str(v + 1)


def parts_of_numbers(x: float, n: int) -> Tuple[float, float, int, int]:
    return (x.real, x.imag, n.real, n.imag)


def updated(z: complex, n: int) -> List[complex]:
    out: List[complex] = []
    w = z
    w += 1
    out.append(w)
    w -= 0.5j
    out.append(w)
    w *= z
    out.append(w)
    w /= 2
    out.append(w)
    w **= n
    out.append(w)
    return out


def chained(a: complex, b: complex, c: complex) -> List[bool]:
    return [a == b == c, a != b != c, a == b or b == c, not (a != c)]


def ternary(z: complex, flag: bool) -> complex:
    return z if flag else -z


def loop_sum(zs: List[complex]) -> Tuple[complex, int]:
    total = 0j
    count = 0
    for z in zs:
        if z:
            total = total + z
            count += 1
    return total, count


def hashes(z: complex, x: float) -> List[int]:
    return [hash(z), hash(1j), hash(complex(x, 0.0)) - hash(x), hash(-0j) - hash(0j)]


CASES = [
    ("hashes", (1 + 2j, 2.5)), ("hashes", (complex(float("inf"), -1.0), -0.0)),
    ("printed", (1 + 2j,)), ("printed", (complex(-0.0, float("nan")),)),
    ("maybe", (None, 2)), ("maybe", (1j, 3)),
    ("either", (3,)), ("either", (2 - 5j,)),
    ("parts_of_numbers", (-2.5, 7)),
    ("updated", (1 + 1j, 3)), ("updated", (-0.5j, -2)),
    ("chained", (1j, 1j, 1j)), ("chained", (1j, 2j, 1j)),
    ("ternary", (1 - 1j, True)), ("ternary", (1 - 1j, False)),
    ("loop_sum", ([1j, 0j, 2 + 0j, complex(0.0, -0.0)],)), ("loop_sum", ([],)),
]
