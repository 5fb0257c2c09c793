"""The wrong solution of QPC004_C2. Its one mistake: a^(L - 2) mod L: the inverse only when L is
prime."""




def solve(a: int, L: int) -> int:
    return pow(a, L - 2, L)
