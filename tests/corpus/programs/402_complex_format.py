from typing import List


def text(z: complex) -> List[str]:
    return [str(z), repr(z), f"{z}", f"{z!r}", f"{z:.3f}", f"{z:g}", f"{z:>30}", f"{z:e}",
            format(z, ".1f"), f"z={z}", "%s" % (z,), str([z, z])]


def special_values() -> List[str]:
    nan = float("nan")
    inf = float("inf")
    return [str(complex(nan, inf)), str(complex(-inf, -nan)), str(-0j), str(0j),
            str(complex(-0.0, 0.0)), str(complex(0.0, -0.0)), str(1j), str(-1j),
            str(complex(1e16, 1e-5)), str(complex(123456789.0, 0.1)), str(2.5j), repr(1 + 0j)]


CASES = [("text", (1 + 2j,)), ("text", (-1.5 - 0.25j,)), ("text", (complex(-0.0, 1e100),)),
         ("text", (complex(float("nan"), -float("inf")),)), ("special_values", ())]
