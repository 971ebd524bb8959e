from typing import List


def rpn(expr: str) -> float:
    stack: List[float] = []
    for tok in expr.split():
        if tok in ("+", "-", "*", "/"):
            if len(stack) < 2:
                raise ValueError("stack underflow at " + tok)
            b = stack.pop()
            a = stack.pop()
            if tok == "+":
                stack.append(a + b)
            elif tok == "-":
                stack.append(a - b)
            elif tok == "*":
                stack.append(a * b)
            else:
                stack.append(a / b)
        else:
            stack.append(float(tok))
    if len(stack) != 1:
        raise ValueError(f"bad expression: {len(stack)} values left")
    return stack[0]


CASES = [("rpn", ("3 4 + 2 *",)), ("rpn", ("5 1 2 + 4 * + 3 -",)), ("rpn", ("1 +",)),
         ("rpn", ("1 2",)), ("rpn", ("1 0 /",)), ("rpn", ("2 x +",))]
