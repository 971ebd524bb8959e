from typing import List


class Parser:
    def __init__(self, text: str):
        self.toks: List[str] = tokenize(text)
        self.pos = 0

    def peek(self) -> str:
        return self.toks[self.pos] if self.pos < len(self.toks) else ""

    def take(self) -> str:
        t = self.peek()
        self.pos += 1
        return t

    def expr(self) -> int:
        v = self.term()
        while self.peek() in ("+", "-"):
            op = self.take()
            r = self.term()
            v = v + r if op == "+" else v - r
        return v

    def term(self) -> int:
        v = self.factor()
        while self.peek() in ("*", "/"):
            op = self.take()
            r = self.factor()
            if op == "*":
                v = v * r
            else:
                v = v // r
        return v

    def factor(self) -> int:
        t = self.take()
        if t == "(":
            v = self.expr()
            if self.take() != ")":
                raise ValueError("expected )")
            return v
        if t == "-":
            return -self.factor()
        return int(t)


def tokenize(s: str) -> List[str]:
    out: List[str] = []
    num = ""
    for c in s:
        if c.isdigit():
            num += c
            continue
        if num:
            out.append(num)
            num = ""
        if c != " ":
            out.append(c)
    if num:
        out.append(num)
    return out


def evaluate(s: str) -> int:
    p = Parser(s)
    v = p.expr()
    if p.pos != len(p.toks):
        raise ValueError("trailing input")
    return v


CASES = [("evaluate", ("2 + 3 * (4 - 1)",)), ("evaluate", ("-(7 - 10) * 2 / 3",)),
         ("evaluate", ("((1)",)), ("evaluate", ("1 2",)), ("evaluate", ("8 / 0",))]
