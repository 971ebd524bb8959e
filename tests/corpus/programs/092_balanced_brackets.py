from typing import Dict, List


def balanced(s: str) -> bool:
    pairs: Dict[str, str] = {")": "(", "]": "[", "}": "{"}
    stack: List[str] = []
    for c in s:
        if c in "([{":
            stack.append(c)
        elif c in pairs:
            if not stack or stack.pop() != pairs[c]:
                return False
    return not stack


def max_depth(s: str) -> int:
    depth = 0
    best = 0
    for c in s:
        if c == "(":
            depth += 1
            best = max(best, depth)
        elif c == ")":
            depth -= 1
    return best


CASES = [("balanced", ("{[()()]}",)), ("balanced", ("([)]",)), ("balanced", ("((",)),
         ("balanced", ("",)), ("max_depth", ("(a(b)(c(d)))",))]
