"""Complex numbers: literals, arithmetic, cmath, conversion, formatting, tensors."""

Z = [(1 + 2j,), (-0.5 + 0j,), (3j,), (complex(1.5, -2.5),)]

CASES = [
    ('''
def f(a: complex, b: complex) -> List[complex]:
    return [a + b, a - b, a * b, a / b, -a, a ** 2, a ** b]
''', [(1 + 2j, 3 - 1j), (0.5j, 2 + 0j)]),
    ('''
def f(a: complex) -> List[float]:
    return [a.real, a.imag, abs(a)]
''', Z),
    ('''
def f(a: complex) -> complex:
    return a.conjugate()
''', Z),
    ('''
def f(a: complex, x: float, n: int) -> List[complex]:
    return [a + x, x * a, a - n, n / a, a * True]
''', [(1 + 1j, 2.0, 3)]),
    ('''
def f(a: complex) -> List[complex]:
    return [cmath.sqrt(a), cmath.exp(a), cmath.log(a), cmath.sin(a), cmath.cos(a),
            cmath.tan(a), cmath.asin(a), cmath.acos(a), cmath.atan(a), cmath.sinh(a),
            cmath.cosh(a), cmath.tanh(a), cmath.log10(a), cmath.asinh(a), cmath.acosh(a),
            cmath.atanh(a)]
''', [(1 + 2j,), (0.5 - 0.25j,)]),
    ('''
def f(a: complex) -> Tuple[float, float]:
    return cmath.polar(a)
''', Z),
    ('''
def f(r: float, p: float) -> complex:
    return cmath.rect(r, p)
''', [(2.0, 0.5)]),
    ('''
def f(a: complex) -> List[bool]:
    return [cmath.isnan(a), cmath.isinf(a), cmath.isfinite(a), a == 1j, a != 0]
''', Z),
    ('''
def f(a: complex) -> float:
    return cmath.phase(a)
''', Z),
    ('''
def f(a: complex) -> str:
    return str(a) + " " + repr(a) + " " + f"{a}" + " {}".format(a)
''', Z + [(complex(0.0, -0.0),), (1e20 + 1j,)]),
    ('''
def f() -> List[complex]:
    return [complex(1, 2), complex(1.5), complex(2), 3 + 4j, 1j * 1j, complex("1+2j")]
''', [()]),
    ('''
def f(x: float, y: float) -> complex:
    return complex(x, y)
''', [(1.0, -1.0)]),
    ('''
def f() -> Tensor:
    return torch.tensor([1 + 2j, 3 - 1j])
''', [()]),
    ('''
def f() -> Tensor:
    x = torch.tensor([1 + 2j, 3 - 1j])
    return x * x + x.conj()
''', [()]),
    ('''
def f() -> Tuple[Tensor, Tensor, Tensor]:
    x = torch.tensor([1 + 2j, 3 - 1j], dtype=torch.complex128)
    return x.real, x.imag, x.abs()
''', [()]),
    ('''
def f() -> Tensor:
    x = torch.tensor([1.0, 2.0])
    y = torch.tensor([0.5, -1.0])
    return torch.complex(x, y)
''', [()]),
    ('''
def f() -> Tensor:
    x = torch.tensor([1 + 2j, 3 - 1j])
    return torch.view_as_real(x)
''', [()]),
    ('''
def f() -> Tensor:
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    return torch.view_as_complex(x)
''', [()]),
    ('''
def f() -> complex:
    x = torch.tensor([1 + 2j])
    return x.item()
''', [()]),
    ('''
def f(a: complex) -> complex:
    b = a
    b += 1
    b *= 2j
    b /= 1 + 1j
    b -= 0.5
    return b
''', [(1 + 1j,)]),
    ('''
def f(a: complex) -> bool:
    return bool(a)
''', [(0j,), (1j,)]),
    ('''
def f(xs: List[complex]) -> complex:
    s = 0j
    for x in xs:
        s += x
    return s + sum(xs)
''', [([1j, 2 + 0j],)]),
    ('''
def f() -> List[float]:
    return [cmath.pi, cmath.e, cmath.inf, cmath.tau]
''', [()]),
    ('''
def f() -> complex:
    return cmath.infj + cmath.nanj
''', [()]),
    ('''
def f(a: complex) -> complex:
    return a / 0
''', [(1j,)]),
    ('''
def f(a: complex) -> str:
    return "%s" % a
''', [(1 + 1j,)]),
    ('''
def f(a: complex) -> str:
    return f"{a:.2f}"
''', [(1.2345 + 2j,)]),
    ('''
def f(a: complex) -> List[complex]:
    return [1j ** 2, (1 + 1j) ** -1, a ** 0.5, 2 ** a]
''', [(1 + 1j,)]),
    ('''
def f() -> Tensor:
    x = torch.tensor([1 + 1j])
    return torch.angle(x) + torch.abs(x)
''', [()]),
    ('''
def f(a: complex, b: complex) -> bool:
    return a == b
''', [(1j, 1j), (1j, 2j)]),
    ('''
def f(x: int) -> complex:
    return x * 1j
''', [(3,)]),
    ('''
def f() -> Tensor:
    return torch.zeros(2, dtype=torch.cfloat) + 1j
''', [()]),
]
