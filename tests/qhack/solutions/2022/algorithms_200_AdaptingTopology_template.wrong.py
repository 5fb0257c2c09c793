import sys
from collections import deque


def bfs_distance(start, goal):
    seen = {start: 0}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for nxt in graph[node]:  # noqa: F821 (given by the template)
            if nxt not in seen:
                seen[nxt] = seen[node] + 1
                queue.append(nxt)
    return seen[goal]


def n_swaps(cnot):
    a, b = cnot.wires.tolist()
    dist = bfs_distance(a, b)
    print("distance", dist, file=sys.stderr)
    # swap the control next to the target, then swap it back
    return dist - 1
