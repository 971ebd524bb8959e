def convert(s: str) -> int:
    try:
        value = int(s)
        ok = True
    except ValueError:
        value = 0
        ok = False
    return value * 10 + (1 if ok else 0)


def with_finally(n: int) -> int:
    total = 1
    try:
        total = total * n
        if n > 5:
            raise ValueError("big")
    except ValueError:
        total = -total
    finally:
        total += 1000
    return total


CASES = [("convert", ("42",)), ("convert", ("4x2",)), ("with_finally", (3,)),
         ("with_finally", (9,))]
