"""The programs the QCoder specs give the judge: each problem's reference solution, its wrong
solutions and the programs that must get UGE or DLE, one module per program (``qpcNNN/<name>``,
each defining ``solve``).

Real modules so that a linter reads them; ``specs.base.program`` reads one into the single file the
judge runs, after the reference libraries of ``jobs/`` it imports. Trusted side only, like
``specs``: a job never imports them. A wrong solution's docstring names its one mistake.
"""
