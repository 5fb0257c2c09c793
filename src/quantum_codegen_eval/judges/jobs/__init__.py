"""Job modules shared by the judges (shipped into sandbox jobs by ``judges/_embed.py``): the wire
codec (``wire`` and its per-framework extensions), the frames of a link between two linked jobs
(``frames``) and the memory-exhaustion test (``memory``)."""
