def fmt(x: float, n: int, s: str) -> list[str]:
    return [f"{x:.2f}", f"{x:10.3f}|", f"{x:<10.1f}|", f"{x:e}", f"{x:.3g}", f"{n:05d}",
            f"{n:,}", f"{n:x} {n:o} {n:b}", f"{n:+d}", f"{s!r}", f"{s:>8}", f"{s:^9}|",
            f"{x:.1%}", f"{{literal}} {n}", f"{n * 2 + 1}", f"{s.upper()}!"]


def nested_spec(x: float, width: int, prec: int) -> str:
    return f"[{x:{width}.{prec}f}]"


CASES = [("fmt", (3.14159, 1234567, "hi")), ("fmt", (-0.5, -42, "")),
         ("nested_spec", (2.71828, 10, 3)), ("nested_spec", (1.0, 1, 0))]
