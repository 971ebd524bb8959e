def escapes() -> list[str]:
    return ["tab\there", "new\nline", "quote\"s", 'single\'s', "back\\slash", "\u00e9t\u00e9",
            "\x41\x42", r"raw\n", "emoji \U0001F600", "é" + "ü", len("ñandú") * "-"]


def unicode_ops(s: str) -> tuple:
    return (len(s), s.upper(), s[::-1], ord(s[0]), chr(ord(s[0]) + 1), s.isalpha())


CASES = [("escapes", ()), ("unicode_ops", ("ñandú",)), ("unicode_ops", ("Ωmega",))]
