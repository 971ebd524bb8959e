def methods(s: str) -> list[str]:
    return [s.upper(), s.lower(), s.strip(), s.lstrip(), s.rstrip("! "), s.title(),
            s.capitalize(), s.swapcase(), s.replace("o", "0"), s.replace("o", "0", 1),
            s.zfill(20), s.center(21, "*"), s.ljust(18, "."), s.rjust(18)]


def queries(s: str) -> tuple:
    return (s.find("o"), s.rfind("o"), s.count("o"), s.startswith(" h"), s.endswith("!"),
            s.isdigit(), s.isalpha(), "wor" in s, "xyz" not in s, len(s))


CASES = [("methods", ("  hello world!  ",)), ("queries", ("  hello world!  ",)),
         ("methods", ("",)), ("queries", ("12345",))]
