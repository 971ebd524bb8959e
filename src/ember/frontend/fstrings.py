"""f-string literals: split into literal text and `{expr!conv:spec}` replacement fields.

Literal pieces are decoded exactly as Python decodes them (the same quotes and
prefix, minus the `f`, handed to `ast.literal_eval` — a literal, never code);
expressions are parsed with ember's own grammar; format specs may themselves
contain replacement fields.
"""

from __future__ import annotations

import ast as pyast

from ember.errors import ParseError, Span
from ember.frontend import ast as A


def parse_fstring(builder, tok, text, prefix, span):
    quote = text[len(prefix):len(prefix) + 3]
    if quote not in ('"""', "'''"):
        quote = quote[0]
    body = text[len(prefix) + len(quote):len(text) - len(quote)]
    plain_prefix = prefix.replace("f", "").replace("F", "")
    ctx = _Ctx(builder, tok, body, plain_prefix, quote, span, len(prefix) + len(quote))
    parts, i = ctx.parse(0, nested=False)
    return parts


class _Ctx:
    def __init__(self, builder, tok, body, prefix, quote, span, body_offset):
        self.b = builder
        self.tok = tok
        self.body = body
        self.prefix = prefix
        self.quote = quote
        self.span = span
        self.body_offset = body_offset

    def fail(self, message):
        raise ParseError(message, self.span)

    def literal(self, chunk: str):
        if not chunk:
            return None
        try:
            value = pyast.literal_eval(f"{self.prefix}{self.quote}{chunk}{self.quote}")
        except (SyntaxError, ValueError) as e:
            self.fail(f"invalid f-string literal: {e}")
        return A.Constant(self.span, value)

    def parse(self, i, nested):
        """Parse from body[i] until the end (or a '}' closing a nested spec)."""
        parts, chunk = [], []
        body = self.body
        while i < len(body):
            c = body[i]
            if c == "{":
                if not nested and body.startswith("{{", i):
                    chunk.append("{")
                    i += 2
                    continue
                parts.append(self.literal("".join(chunk)))
                chunk = []
                fields, i = self.field(i + 1)
                parts.extend(fields)
                continue
            if c == "}":
                if nested:
                    break
                if body.startswith("}}", i):
                    chunk.append("}")
                    i += 2
                    continue
                self.fail("f-string: single '}' is not allowed")
            chunk.append(c)
            i += 1
        parts.append(self.literal("".join(chunk)))
        return [p for p in parts if p is not None], i

    def field(self, i):
        start = i
        end, conv_at, spec_at = self.scan_expression(i)
        expr_text = self.body[start:conv_at if conv_at is not None else
                              (spec_at if spec_at is not None else end)]
        if not expr_text.strip():
            self.fail("f-string: empty expression not allowed")
        debug = _is_debug(expr_text)
        value = self.expression(expr_text[:expr_text.rstrip().rfind("=")] if debug else
                                expr_text, start)
        conversion = "r" if debug and conv_at is None and spec_at is None else None
        if conv_at is not None:
            stop = spec_at if spec_at is not None else end
            conversion = self.body[conv_at + 1:stop].strip()
            if conversion not in ("r", "s", "a"):
                self.fail(f"f-string: invalid conversion character {conversion!r}")
        spec = None
        if spec_at is not None:
            spec_parts, j = self.parse(spec_at + 1, nested=True)
            if j != end:
                self.fail("f-string: expecting '}'")
            spec = A.JoinedStr(self.span, spec_parts)
        field = A.FormattedValue(value.span, value, conversion, spec)
        # `{x=}` writes the field's text as written, then the value (its repr by default)
        return ([A.Constant(self.span, expr_text), field] if debug else [field]), end + 1

    def scan_expression(self, i):
        """Find the field's end '}', its '!' conversion and ':' spec, skipping nested brackets."""
        depth, conv_at, spec_at = 0, None, None
        body = self.body
        while i < len(body):
            c = body[i]
            if c in "'\"":
                j = body.find(c, i + 1)
                if j < 0:
                    self.fail("f-string: unterminated string")
                i = j + 1
                continue
            if c in "([{":
                depth += 1
            elif c in ")]" or (c == "}" and depth > 0):
                depth -= 1
            elif depth == 0:
                if c == "}":
                    return i, conv_at, spec_at
                if c == "!" and not body.startswith("!=", i) and spec_at is None:
                    conv_at = i
                elif c == ":" and spec_at is None:
                    spec_at = i
                    return self.spec_end(i + 1), conv_at, spec_at
            i += 1
        self.fail("f-string: expecting '}'")

    def spec_end(self, i):
        depth = 0
        while i < len(self.body):
            c = self.body[i]
            if c == "{":
                depth += 1
            elif c == "}":
                if depth == 0:
                    return i
                depth -= 1
            i += 1
        self.fail("f-string: expecting '}'")

    def expression(self, text, offset):
        from ember.frontend.parser import parse_expression

        src = self.b.source
        line = self.tok.line + src.first_line - 1
        before = self.body[:offset]
        if "\n" in before:
            line += before.count("\n")
            col = len(before) - before.rfind("\n")
        else:
            col = self.tok.column + self.body_offset + offset
        lead = len(text) - len(text.lstrip())
        try:
            return parse_expression(text, src, line, col + lead)
        except ParseError:
            raise
        except Exception:  # noqa: BLE001 - any lark failure inside a field is a syntax error
            raise ParseError("invalid expression in f-string",
                             Span(src, line, col, line, col + len(text))) from None


def _is_debug(expr_text: str) -> bool:
    """Whether a field's expression text is `expr=` (Python 3.8's self-documenting form)."""
    text = expr_text.rstrip()
    return text.endswith("=") and not text.endswith(("==", "!=", "<=", ">="))

