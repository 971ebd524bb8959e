from typing import List, Tuple


def title(k: str) -> str:
    return k.capitalize()


class Animal:
    kind: str
    SOUND = "a sound"

    def __init__(self, name: str, legs: int = 4):
        self.name = name
        self.legs = legs
        self.kind = "animal"

    def speak(self) -> str:
        return self.name + " makes " + self.SOUND

    def describe(self) -> str:
        return f"{self.name} ({self.kind}, {self.legs} legs): {self.speak()}"

    def __repr__(self) -> str:
        return f"{title(self.kind)}({self.name!r})"


class Dog(Animal):
    SOUND = "woof"

    def __init__(self, name: str, trick: str):
        super().__init__(name)
        self.trick = trick
        self.kind = "dog"

    def speak(self) -> str:
        return self.name + " barks"

    def show(self) -> str:
        return super().speak() + " / " + self.speak() + " / " + self.trick


class Puppy(Dog):
    def speak(self) -> str:
        return super().speak() + " softly"


class Bird(Animal):
    LIMIT = 3

    def describe(self) -> str:
        return "bird: " + super().describe()

    def fly(self, n: int) -> int:
        if n <= 0:
            raise ValueError("cannot fly " + str(n))
        return min(n, self.LIMIT)


def overriding(n: str) -> List[str]:
    a = Animal(n)
    d = Dog(n, "roll")
    p = Puppy("p" + n, "sit")
    return [a.describe(), d.describe(), d.show(), p.describe(), p.show(), repr(p), p.trick]


def inherited(n: str) -> Tuple[str, int, int, str]:
    b = Bird(n, 2)
    return b.describe(), b.legs, b.fly(7), Bird.SOUND + Dog.SOUND


def checks(n: str) -> List[bool]:
    b = Bird(n)
    p = Puppy(n, "x")
    return [isinstance(b, Animal), isinstance(b, Bird), isinstance(Animal(n), Bird),
            isinstance(p, Dog), isinstance(p, Animal), isinstance(p, Bird)]


def raising(n: int) -> int:
    return Bird("b").fly(n)


def in_lists(n: int) -> List[str]:
    dogs = [Dog("d" + str(i), "t") for i in range(n)]
    return [d.speak() for d in dogs] + [str(len(dogs))]


CASES = [
    ("overriding", ("rex",)),
    ("inherited", ("tweety",)),
    ("checks", ("q",)),
    ("raising", (2,)),
    ("raising", (0,)),
    ("in_lists", (2,)),
]
