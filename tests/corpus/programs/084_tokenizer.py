from typing import List


def tokenize(src: str) -> List[str]:
    tokens: List[str] = []
    i = 0
    while i < len(src):
        c = src[i]
        if c.isspace():
            i += 1
        elif c.isdigit():
            j = i
            while j < len(src) and (src[j].isdigit() or src[j] == "."):
                j += 1
            tokens.append(src[i:j])
            i = j
        elif c.isalpha() or c == "_":
            j = i
            while j < len(src) and (src[j].isalnum() or src[j] == "_"):
                j += 1
            tokens.append(src[i:j])
            i = j
        elif src[i:i + 2] in ("==", "!=", "<=", ">=", "**"):
            tokens.append(src[i:i + 2])
            i += 2
        else:
            tokens.append(c)
            i += 1
    return tokens


CASES = [("tokenize", ("x1 = (y_2 + 3.14) ** 2 >= foo",)), ("tokenize", ("",)),
         ("tokenize", ("a!=b",))]
