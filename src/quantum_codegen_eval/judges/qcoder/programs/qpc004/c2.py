"""The reference solution of QPC004_C2."""




def solve(a: int, L: int) -> int:
    return pow(a, -1, L)
