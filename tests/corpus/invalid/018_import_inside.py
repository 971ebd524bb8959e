# error: UnsupportedError
# line: 6
# match: importing 'json' inside a function

def f(x: float) -> float:
    import json
    return x


ENTRY = "f"
