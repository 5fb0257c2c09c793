"""The QHack judge's job programs (shipped into sandbox jobs by ``judges/_embed.job_source``):
:mod:`.program` (the untrusted job), :mod:`.trusted` (the trusted check job) and what they use."""
