def check_simplification(op1, op2):
    for i in range(len(op1)):
        p1, p2 = op1[i], op2[i]
        if p1 != "I" and p2 != "I" and p1 != p2:
            return False
    return True


def join_operators(op1, op2):
    return [op2[i] if op1[i] == "I" else op1[i] for i in range(len(op1))]


def compression_ratio(obs_hamiltonian, final_solution):
    return 1 - len(final_solution) / len(obs_hamiltonian)
