"""The wrong solution of QPC004_C1. Its one mistake: a^k mod L instead of a^(2^k) mod L."""




def solve(n: int, a: int, L: int) -> list[int]:
    return [pow(a, k, L) for k in range(n)]
