"""The operator matrix over number literals and tensors (test_jit's template tests)."""

OPS = ["+", "-", "*", "/", "//", "%", "**", "<", "<=", ">", ">=", "==", "!="]
SCALARS = ["7", "-3", "2.5", "-0.5", "0", "0.0", "True"]

CASES = []
for _op in OPS:
    src = "\ndef f():\n    return (" + ", ".join(
        f"({a}) {_op} ({b})" for a in SCALARS for b in SCALARS
        if not (b in ("0", "0.0") and _op in ("/", "//", "%")) and
        not (_op == "**" and (a.startswith("-") or a in ("0", "0.0"))) and
        not (a == "True" and b == "True" and _op in ("+", "-", "*"))) + ")\n"
    CASES.append((src, [()]))

TENSOR_OPS = ["+", "-", "*", "/", "<", "==", ">="]
for _op in TENSOR_OPS:
    for _t in ["torch.tensor(3)", "torch.tensor(2.5)", "torch.tensor([1, 2])",
               "torch.tensor([1.5, -2.0])"]:
        src = (f"\ndef f():\n    x = {_t}\n    return x {_op} 2, x {_op} 1.5, 2 {_op} x, "
               f"1.5 {_op} x, x {_op} x\n")
        CASES.append((src, [()]))

CASES += [
    ('''
def f(a: int, b: int):
    return a / b, a // b, a % b, divmod(a, b)
''', [(7, 2), (-7, 2), (7, -2), (1, 0)]),
    ('''
def f(a: float, b: float):
    return a / b, a // b, a % b, divmod(a, b)
''', [(7.5, 2.0), (-7.5, 2.0), (1.0, 0.0)]),
    ('''
def f(x: int):
    return -x, +x, ~x, not x, abs(x)
''', [(5,), (0,), (-2,)]),
    ('''
def f():
    return 1 < 2 < 3, 3 > 2 > 2, 1 == 1.0, 1 != True, 2 ** 0.5, 10 ** -2
''', [()]),
    ('''
def f():
    return float(3), int(2.9), int(-2.9), bool(0.0), bool(-1), str(3.0), int(True), float(False)
''', [()]),
    ('''
def f():
    return max(1, 2), min(2.5, 1.5), max(True, False), min(-1, 3), max([1, 5, 2])
''', [()]),
    ('''
def f():
    return round(2.5), round(3.5), round(-2.5), round(2.675, 2), round(5), round(1.5, 0)
''', [()]),
    ('''
def f():
    return abs(-3), abs(-2.5), abs(0), abs(-0.0), abs(True)
''', [()]),
    ('''
def f():
    x = torch.tensor(5)
    return x.item() + 1, int(x) * 2, float(x) / 2, bool(x)
''', [()]),
    ('''
def f():
    x = torch.tensor([4.0, 9.0])
    return x.sum().item(), x[0].item(), x.mean().item(), x.max().item()
''', [()]),
    ('''
def f():
    a = 3
    a = a + 1
    b = 2.0
    b = b * a
    return a, b
''', [()]),
    ('''
def f(x: int, y: float):
    return x == y, x < y, x + y, x * y, y // x, x ** y
''', [(2, 2.0), (3, 0.5)]),
    ('''
def f():
    return 0.1 + 0.2, 1e300 * 1e10, -1e300 * 1e10, 3 * 0.1, 1 / 3
''', [()]),
    ('''
def f():
    return 7 // 2 * 2 + 7 % 2, -7 // 2, -7 % 2, 7 % -2, -7.0 // 2, -7.0 % 2
''', [()]),
    ('''
def f():
    return 1 << 10, 1024 >> 3, -8 >> 1, 5 & 3, 5 | 3, 5 ^ 3, ~5
''', [()]),
]
