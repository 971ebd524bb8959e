"""int64 semantics shared by the int kernels and the runtime's inlined arithmetic.

ember's int is 64-bit: an operation whose exact result does not fit raises
OverflowError (never a silent wrap, unlike TorchScript). Everything else —
floor division and modulo of negatives, ZeroDivisionError messages — is
CPython's own behaviour, because the kernels run CPython's operators.
"""

from __future__ import annotations

INT64_MIN = -(1 << 63)
INT64_MAX = (1 << 63) - 1


def overflow_error(symbol: str, a, b=None) -> OverflowError:
    """The error raised when `a symbol b`, unary `symbol a`, or the call `symbol(a)` /
    `symbol(a, b)` (a symbol that starts with a letter: "abs", "math.gcd") leaves int64."""
    if symbol[:1].isalpha():
        args = f"{a}" if b is None else f"{a}, {b}"
        return OverflowError(f"int64 overflow: {symbol}({args})")
    if b is None:
        return OverflowError(f"int64 overflow: {symbol}({a})")
    shown = f"({b})" if isinstance(b, int) and b < 0 else f"{b}"
    return OverflowError(f"int64 overflow: {a} {symbol} {shown}")


def check(r: int, symbol: str, a, b=None) -> int:
    """r if it fits in int64, else raise the overflow error for `a symbol b`."""
    if INT64_MIN <= r <= INT64_MAX:
        return r
    raise overflow_error(symbol, a, b)


def int_pow(a: int, b: int) -> int:
    """a ** b for ints: int result; a negative exponent is an error (the result is a float)."""
    if b < 0 and a == 0:  # CPython's own error: 0 ** -n would be 1 / 0
        raise ZeroDivisionError("0.0 cannot be raised to a negative power")
    if b < 0:
        raise ValueError("negative exponent in int ** int; write float(x) ** n")
    if -1 <= a <= 1 or b <= 64:
        return check(a ** b, "**", a, b)
    raise overflow_error("**", a, b)


def int_lshift(a: int, b: int) -> int:
    if b < 0:
        raise ValueError("negative shift count")
    if a == 0:
        return 0
    if b >= 64:
        raise overflow_error("<<", a, b)
    return check(a << b, "<<", a, b)
