# error: UnsupportedError
# line: 5
# match: async

async def f(x: int) -> int:
    return x


ENTRY = "f"
