from typing import List


def parse_all(items: List[str]) -> List[int]:
    out: List[int] = []
    errors = 0
    for s in items:
        try:
            v = int(s)
        except ValueError:
            errors += 1
            continue
        if v < 0:
            break
        out.append(v)
    out.append(errors)
    return out


def retry(n: int) -> int:
    attempts = 0
    result = -1
    while attempts < 10:
        attempts += 1
        try:
            if attempts < n:
                raise RuntimeError("not yet")
            result = attempts * 100
            break
        except RuntimeError:
            pass
    return result + attempts


CASES = [("parse_all", (["1", "x", "3", "-1", "5"],)), ("parse_all", ([],)), ("retry", (3,)),
         ("retry", (20,))]
