def greet(name: str, greeting: str = "Hello", times: int = 1, loud: bool = False) -> str:
    text = (greeting + ", " + name + "!") * times
    return text.upper() if loud else text


def caller(n: int) -> list[str]:
    return [greet("Ann"), greet("Bob", "Hi"), greet("Cy", times=2), greet(name="Di", loud=True),
            greet("Ed", "Yo", loud=True, times=n)]


def scaled(x: float, factor: float = 2.0) -> float:
    return x * factor


def use_scaled(x: int) -> tuple:
    return scaled(x), scaled(1.5, 3), scaled(factor=0.5, x=4.0)


CASES = [("caller", (2,)), ("greet", ("Zed",)), ("use_scaled", (3,))]
