"""The fast parser's tokens and trees, without lark (importing lark costs a fresh process
~11 ms; the fast parser needs lark only to report a syntax error).

`Token` behaves as lark.lexer.Token (a str with a type and positions: same repr, same
equality); `Tree` is what lark's Transformer.__default__ gives for a rule the AST builder
has no method for (its children are spliced into the parent rule's).
"""

from __future__ import annotations


class Token(str):
    """A lexed token: its text, terminal name and positions (lark.lexer.Token's fields)."""

    __slots__ = ("type", "start_pos", "value", "line", "column", "end_line", "end_column",
                 "end_pos")

    def __new__(cls, type, value, start_pos=None, line=None, column=None, end_line=None,
                end_column=None, end_pos=None):
        inst = super().__new__(cls, value)
        inst.type, inst.start_pos, inst.value = type, start_pos, value
        inst.line, inst.column, inst.end_line = line, column, end_line
        inst.end_column, inst.end_pos = end_column, end_pos
        return inst

    @classmethod
    def new_borrow_pos(cls, type_: str, value, borrow_t) -> "Token":
        return cls(type_, value, borrow_t.start_pos, borrow_t.line, borrow_t.column,
                   borrow_t.end_line, borrow_t.end_column, borrow_t.end_pos)

    def __repr__(self) -> str:
        return "Token(%r, %r)" % (self.type, self.value)

    def __eq__(self, other) -> bool:
        if isinstance(other, Token) and self.type != other.type:
            return False
        return str.__eq__(self, other)

    __hash__ = str.__hash__


class Tree:
    """A rule's children kept together (lark.Tree's data, children and meta)."""

    __slots__ = ("data", "children", "meta")

    def __init__(self, data: str, children: list, meta=None):
        self.data, self.children, self.meta = data, children, meta

    def __repr__(self) -> str:
        return "Tree(%r, %r)" % (self.data, self.children)
