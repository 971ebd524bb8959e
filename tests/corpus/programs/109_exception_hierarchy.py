from typing import Dict, List


def classify(kind: int) -> str:
    try:
        if kind == 0:
            return str(1 // 0)
        if kind == 1:
            d: Dict[str, int] = {}
            return str(d["missing"])
        if kind == 2:
            xs: List[int] = []
            return str(xs[3])
        if kind == 3:
            raise RuntimeError("runtime")
        return "none"
    except ArithmeticError as e:
        return "arith: " + str(e)
    except LookupError as e:
        return "lookup: " + str(e)
    except Exception as e:
        return "other: " + str(e)


CASES = [("classify", (0,)), ("classify", (1,)), ("classify", (2,)), ("classify", (3,)),
         ("classify", (4,))]
