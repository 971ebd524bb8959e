def logic(a: bool, b: bool) -> list[bool]:
    return [a and b, a or b, not a, a ^ b, a & b, a | b, a == b, a != b]


def short_circuit(n: int) -> int:
    calls: list[int] = []
    if n > 0 and record(calls, n) > 5:
        calls.append(100)
    if n < 0 or record(calls, -n) > 5:
        calls.append(200)
    return len(calls) * 1000 + sum(calls)


def record(calls: list[int], v: int) -> int:
    calls.append(v)
    return v


CASES = [("logic", (True, False)), ("logic", (True, True)), ("logic", (False, False)),
         ("short_circuit", (10,)), ("short_circuit", (-10,)), ("short_circuit", (0,))]
