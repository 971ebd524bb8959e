from typing import List


def is_prime(n: int) -> bool:
    if n < 2:
        return False
    for d in range(2, n):
        if d * d > n:
            break
        if n % d == 0:
            return False
    else:
        return True
    return True


def first_negative(xs: List[int]) -> int:
    idx = -1
    for i, x in enumerate(xs):
        if x < 0:
            idx = i
            break
    else:
        idx = len(xs)
    return idx


CASES = [("is_prime", (2,)), ("is_prime", (15,)), ("is_prime", (97,)), ("is_prime", (1,)),
         ("first_negative", ([3, 4, -1, 5],)), ("first_negative", ([1, 2],))]
