from typing import List, Tuple

ROOT = 1 - 2j
UNIT = 1j
PAIR = (0.5j, -1 - 1j)


def scaled(k: int) -> List[complex]:
    return [ROOT * k, UNIT ** k, PAIR[0] + PAIR[1], -ROOT, complex(ROOT.imag, ROOT.real)]


def in_list(z: complex) -> Tuple[bool, int]:
    zs = [ROOT, UNIT, 2 + 0j]
    zs.append(z)
    return z in zs[:3], zs.index(z)


def keyed(z: complex) -> complex:
    table = {ROOT: UNIT, UNIT: ROOT}
    table[z] = z * 2
    return table[ROOT] + table.get(z, 0j)


CASES = [("scaled", (3,)), ("scaled", (-2,)), ("in_list", (1j,)), ("in_list", (5j,)),
         ("keyed", (1 - 2j,)), ("keyed", (3 + 0j,))]
