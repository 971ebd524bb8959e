from typing import List


class Matrix:
    def __init__(self, rows: int, cols: int):
        self.rows = rows
        self.cols = cols
        self.data = [0.0] * (rows * cols)

    def get(self, r: int, c: int) -> float:
        return self.data[r * self.cols + c]

    def set(self, r: int, c: int, v: float) -> None:
        self.data[r * self.cols + c] = v

    def mul(self, other: "Matrix") -> "Matrix":
        if self.cols != other.rows:
            raise ValueError("shape mismatch")
        out = Matrix(self.rows, other.cols)
        for i in range(self.rows):
            for j in range(other.cols):
                s = 0.0
                for k in range(self.cols):
                    s += self.get(i, k) * other.get(k, j)
                out.set(i, j, s)
        return out


def identity_mul(n: int) -> List[float]:
    a = Matrix(n, n)
    eye = Matrix(n, n)
    for i in range(n):
        eye.set(i, i, 1.0)
        for j in range(n):
            a.set(i, j, float(i * n + j))
    return a.mul(eye).data


def bad_shapes() -> int:
    return Matrix(2, 3).mul(Matrix(2, 3)).rows


CASES = [("identity_mul", (3,)), ("bad_shapes", ())]
