from typing import List


def trace(n: int) -> List[str]:
    log: List[str] = []
    try:
        log.append("try")
        if n == 0:
            raise ValueError("zero")
        log.append("after")
    except ValueError as e:
        log.append("except " + str(e))
    else:
        log.append("else")
    finally:
        log.append("finally")
    return log


def finally_return(n: int) -> List[str]:
    log: List[str] = []
    try:
        if n > 0:
            return log
        log.append("body")
    finally:
        log.append("cleanup")
    return log


def loop_with_finally(n: int) -> List[int]:
    out: List[int] = []
    for i in range(n):
        try:
            if i == 1:
                continue
            if i == 3:
                break
            out.append(i)
        finally:
            out.append(100 + i)
    return out


CASES = [("trace", (1,)), ("trace", (0,)), ("finally_return", (1,)), ("finally_return", (0,)),
         ("loop_with_finally", (5,))]
