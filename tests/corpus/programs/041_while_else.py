def find_divisor(n: int) -> int:
    d = 2
    while d * d <= n:
        if n % d == 0:
            break
        d += 1
    else:
        d = n
    return d


def count_down(n: int) -> list[int]:
    out: list[int] = []
    while n > 0:
        n -= 1
        if n % 3 == 0:
            continue
        out.append(n)
    else:
        out.append(-1)
    return out


CASES = [("find_divisor", (91,)), ("find_divisor", (97,)), ("find_divisor", (4,)),
         ("count_down", (10,)), ("count_down", (0,))]
