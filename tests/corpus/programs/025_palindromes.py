def is_palindrome(s: str) -> bool:
    cleaned = "".join([c.lower() for c in s if c.isalnum()])
    return cleaned == cleaned[::-1]


def longest_palindrome(s: str) -> str:
    best = ""
    for i in range(len(s)):
        for j in range(i + 1, len(s) + 1):
            sub = s[i:j]
            if len(sub) > len(best) and sub == sub[::-1]:
                best = sub
    return best


CASES = [("is_palindrome", ("A man, a plan, a canal: Panama",)), ("is_palindrome", ("abc",)),
         ("longest_palindrome", ("forgeeksskeegfor",)), ("longest_palindrome", ("",))]
