def mandelbrot(n: int) -> int:
    total = 0
    for py in range(n):
        ci = 2.5 * py / n - 1.25
        for px in range(n):
            cr = 2.5 * px / n - 2.0
            zr = 0.0
            zi = 0.0
            it = 0
            while it < 50 and zr * zr + zi * zi <= 4.0:
                t = zr * zr - zi * zi + cr
                zi = 2.0 * zr * zi + ci
                zr = t
                it += 1
            total += it
    return total


CASES = [("mandelbrot", (8,)), ("mandelbrot", (1,))]
