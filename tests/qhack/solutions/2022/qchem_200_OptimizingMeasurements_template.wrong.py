def check_simplification(op1, op2):
    # only words acting on disjoint qubits are merged (rule 2 forgotten)
    for p1, p2 in zip(op1, op2):
        if p1 != "I" and p2 != "I":
            return False
    return True


def join_operators(op1, op2):
    return [p2 if p1 == "I" else p1 for p1, p2 in zip(op1, op2)]


def compression_ratio(obs_hamiltonian, final_solution):
    return 1 - len(final_solution) / len(obs_hamiltonian)
