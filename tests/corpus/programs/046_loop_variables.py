def accumulate(n: int) -> tuple:
    total = 0
    prod = 1
    last = -1
    for i in range(1, n + 1):
        total += i
        prod *= i
        last = i
    return total, prod, last


def collatz(n: int) -> int:
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def fizzbuzz(n: int) -> list[str]:
    out: list[str] = []
    for i in range(1, n + 1):
        if i % 15 == 0:
            out.append("FizzBuzz")
        elif i % 3 == 0:
            out.append("Fizz")
        elif i % 5 == 0:
            out.append("Buzz")
        else:
            out.append(str(i))
    return out


CASES = [("accumulate", (6,)), ("accumulate", (0,)), ("collatz", (27,)), ("fizzbuzz", (16,))]
