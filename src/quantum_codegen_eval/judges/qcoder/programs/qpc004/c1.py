"""The reference solution of QPC004_C1."""




def solve(n: int, a: int, L: int) -> list[int]:
    result = []
    x = a % L
    for _ in range(n):
        result.append(x)
        x = x * x % L
    return result
