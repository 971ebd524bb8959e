from typing import List, Optional


def last_index(n: int) -> int:
    for i in range(n):
        pass
    return i


def first_big(xs: List[int]) -> int:
    for x in xs:
        if x > 10:
            found = x
            break
    else:
        return -1
    return found * 1000 + x


def last_word(s: str) -> str:
    for w in s.split():
        upper = w.upper()
    return upper + "/" + w


def countdown(n: int) -> str:
    while n > 0:
        text = str(n)
        n -= 1
    return text


def nested(n: int, m: int) -> List[int]:
    out: List[int] = []
    for a in range(n):
        for b in range(m):
            pass
        out.append(a * 10 + b)
    return out


def previous(xs: List[int]) -> int:
    total = 0
    for k in range(len(xs)):
        if k > 0:
            total += prev
        prev = xs[k]
    return total + prev


def inner_kept(xs: List[List[int]]) -> int:
    for row in xs:
        for v in row:
            pass
    return v


def try_in_loop(xs: List[int]) -> int:
    for x in xs:
        try:
            y = 10 // x
        except ZeroDivisionError:
            y = -1
            continue
    return y + x


def optional_kept(n: int) -> Optional[int]:
    while True:
        if n > 5:
            best = None
        else:
            best = n
        break
    return best


def in_branch(n: int) -> int:
    if n > 0:
        for i in range(n):
            k = i * 2
        r = k
    else:
        r = -1
    return r


CASES = [
    ("last_index", (4,)),
    ("last_index", (0,)),
    ("first_big", ([1, 20, 30],)),
    ("first_big", ([1, 2],)),
    ("last_word", ("to be or",)),
    ("last_word", ("",)),
    ("countdown", (3,)),
    ("countdown", (0,)),
    ("nested", (2, 3)),
    ("nested", (2, 0)),
    ("previous", ([1, 2, 3],)),
    ("previous", ([],)),
    ("inner_kept", ([[1], [2, 3]],)),
    ("inner_kept", ([[1], []],)),
    ("inner_kept", ([],)),
    ("try_in_loop", ([1, 0],)),
    ("try_in_loop", ([0],)),
    ("try_in_loop", ([],)),
    ("optional_kept", (3,)),
    ("optional_kept", (9,)),
    ("in_branch", (3,)),
    ("in_branch", (0,)),
]
