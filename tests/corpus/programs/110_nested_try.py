from typing import List


def nested(n: int) -> List[str]:
    log: List[str] = []
    try:
        try:
            if n == 1:
                raise ValueError("inner")
            if n == 2:
                raise KeyError("k")
            log.append("inner ok")
        except ValueError as e:
            log.append("caught " + str(e))
            if n == 1:
                raise RuntimeError("from handler")
        finally:
            log.append("inner finally")
    except RuntimeError as e:
        log.append("outer " + str(e))
    except KeyError as e:
        log.append("outer key " + str(e))
    return log


def reraise(n: int) -> int:
    try:
        return 10 // n
    except ZeroDivisionError:
        raise


CASES = [("nested", (0,)), ("nested", (1,)), ("nested", (2,)), ("reraise", (2,)),
         ("reraise", (0,))]
