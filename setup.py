"""The package list, found rather than kept by hand (pyproject.toml holds everything else).

Every folder of ``src/quantum_codegen_eval`` is a package, and so are ``loaders/`` and
``dataset_cards/`` (shipped as ``quantum_codegen_eval.loaders`` and
``quantum_codegen_eval.dataset_cards``: pyproject's ``package-dir``), so a new benchmark's folders
ship without an edit here. Folders holding only data files are packages too (namespace
discovery), which is how their files reach the wheel.
"""

from setuptools import find_namespace_packages, setup

PACKAGE = "quantum_codegen_eval"
SKIP = ["*__pycache__*", "*.egg-info*"]


def packages() -> list[str]:
    found = find_namespace_packages("src", include=[PACKAGE, f"{PACKAGE}.*"], exclude=SKIP)
    for top in ("loaders", "dataset_cards"):
        found += [f"{PACKAGE}.{name}" for name in
                  find_namespace_packages(".", include=[top, f"{top}.*"], exclude=SKIP)]
    return sorted(found)


if __name__ == "__main__":  # as the build backend runs it (tests import packages())
    setup(packages=packages())
