def is_leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def days_in_month(year: int, month: int) -> int:
    if month == 2:
        return 29 if is_leap(year) else 28
    return 30 if month in (4, 6, 9, 11) else 31


def day_of_year(year: int, month: int, day: int) -> int:
    total = day
    for m in range(1, month):
        total += days_in_month(year, m)
    return total


def weekday(y: int, m: int, d: int) -> int:
    if m < 3:
        m += 12
        y -= 1
    k = y % 100
    j = y // 100
    h = (d + 13 * (m + 1) // 5 + k + k // 4 + j // 4 + 5 * j) % 7
    return (h + 5) % 7


CASES = [("day_of_year", (2024, 3, 1)), ("day_of_year", (2023, 12, 31)), ("weekday", (2000, 1, 1)),
         ("weekday", (2024, 2, 29))]
