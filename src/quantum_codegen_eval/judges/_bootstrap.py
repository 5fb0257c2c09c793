"""The first lines of every job script (see ``_embed.job_source``): registers the job's modules
under their own dotted names, so that they import each other as they do in the package."""

import sys
import types


def _install(modules):
    """Execute each ``(dotted name, source)`` as a module, in order (dependencies first). One
    the sandbox's worker already installed from the same source (the job's ``prelude``) is
    kept, up to the first that differs: from there on each is executed afresh."""
    fresh = False
    for name, source in modules:
        if not fresh and getattr(sys.modules.get(name), "__job_source__", None) == source:
            continue
        fresh = True
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
        exec(compile(source, module.__file__, "exec"), module.__dict__)
        module.__job_source__ = source
