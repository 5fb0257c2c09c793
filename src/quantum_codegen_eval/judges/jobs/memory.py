"""Whether an exception a job's harness caught means the program ran out of memory."""


def ran_out_of_memory(exc):
    """``exc`` is a ``MemoryError`` (NumPy's ``_ArrayMemoryError`` included) or was raised
    because of one or while handling one (its ``__cause__`` / ``__context__`` chain)."""
    for _ in range(50):
        if exc is None:
            return False
        if isinstance(exc, MemoryError):
            return True
        exc = exc.__cause__ or exc.__context__
    return False
