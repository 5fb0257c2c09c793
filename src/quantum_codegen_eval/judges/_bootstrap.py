"""The first lines of every job script (see ``_embed.job_source``): registers the job's modules
under their own dotted names, so that they import each other as they do in the package."""

import sys
import types


def _install(modules):
    """Execute each ``(dotted name, source)`` as a module, in order (dependencies first)."""
    for name, source in modules:
        parts = name.split(".")
        for i in range(1, len(parts)):
            package = ".".join(parts[:i])
            if package not in sys.modules:
                stub = types.ModuleType(package)
                stub.__path__ = []
                sys.modules[package] = stub
                if i > 1:
                    setattr(sys.modules[".".join(parts[:i - 1])], parts[i - 1], stub)
        module = types.ModuleType(name)
        module.__package__ = name.rpartition(".")[0]
        module.__file__ = "<job " + name + ">"
        sys.modules[name] = module
        setattr(sys.modules[module.__package__], parts[-1], module)
        # compiled once by the sandbox's worker when the job asked for it (``Job.precompile``)
        code = getattr(sys.modules.get("_qce_precompiled"), "code", {}).get(
            (module.__file__, source))
        if code is None:
            code = compile(source, module.__file__, "exec")
        exec(code, module.__dict__)
