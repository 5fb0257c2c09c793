"""A codec extension for the values a task itself defines: instances of its classes (Quantum
Katas's ``TruthTable``, its ``Pauli`` enum) both ways, and the test's own functions (the oracles
a test passes to the program) from the test to the program only.

* A class instance crosses as its class's name and its data and is rebuilt from the class of that
  name on the receiving side, each side's own (the check's class is the test's or the prompt's,
  never the program's): ``{"$": "task", "cls": name, "member": m}`` for an ``Enum`` member,
  ``{"$": "task", "cls": name, "state": [[attr, value], ...]}`` for another instance (its
  ``__dict__``: plain attribute names, values in the codec's own kinds), rebuilt without calling
  the class's ``__init__``. Only instances whose type is exactly a declared class cross.
* A function the test defines (compiled from the test's source, ``<test>``) crosses as its
  source text, its closure's values and defaults (data, in the codec's kinds) and the test's
  import statements: ``{"$": "task_fn", ...}``. The program's side rebuilds it in the program's
  process (the test's input to the program, as upstream's single process hands it over: the
  assertions and expected values stay in the trusted process). Only the side that holds the test
  (``test_source``) encodes one, and it never decodes one: a function never crosses from the
  program to the test.

Decoding a class name the receiving side does not declare is malformed. This is a job module:
standard library only, no effect on import.

>>> import enum
>>> class Pauli(enum.Enum):
...     X = "X"
>>> class Table:
...     def __init__(self, bits):
...         self.bits = bits
>>> from . import codec
>>> c = with_classes(codec.CODEC, {"Pauli": Pauli, "Table": Table})
>>> c.decode(c.encode([Pauli.X, Table(5)]))[1].bits
5
"""

import ast
import enum
import re
import textwrap
import types

from ...jobs import wire

_ATTR = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,99}")
MAX_ATTRS = 1000
MAX_SOURCE = 200_000
TEST_FILE = "<test>"


class Remote:
    """The test's stand-in for a function the program returned (``ref``: its number in the
    program's job); calling it is a call of the program (``call("$ref:<n>", args, kwargs)``)."""

    __slots__ = ("ref", "_call")

    def __init__(self, ref, call):
        self.ref, self._call = ref, call

    def __call__(self, *args, **kwargs):
        return self._call(f"$ref:{self.ref}", args, kwargs)


class TaskValues:
    """The extension for ``classes`` (name -> class); with ``test_source`` (the trusted side) it
    encodes the test's functions and, with ``call`` (the proxy's), reads the program's returned
    functions as :class:`Remote` stand-ins; with ``program`` (the program's namespace) it
    rebuilds the test's functions and numbers the functions the program returns."""

    def __init__(self, classes, test_source=None, program=None, call=None):
        self.classes = {str(k): v for k, v in classes.items() if isinstance(v, type)}
        self.names = {v: k for k, v in self.classes.items()}
        self.test_source, self.program, self.call = test_source, program, call
        self.refs = []
        self._defs = None
        self.DECODERS = {"task": self.decode, "task_fn": self.decode_function,
                         "callable": self.decode_callable}

    def encode(self, enc, value, depth):
        if type(value) is types.FunctionType and self.test_source is not None \
                and value.__code__.co_filename == TEST_FILE:
            return self.encode_function(enc, value, depth)
        if type(value) is Remote and self.call is not None:
            return {"$": "callable", "ref": value.ref}
        if self.program is not None and type(value) in _CALLABLES and not enc.fp:
            self.refs.append(value)
            return {"$": "callable", "ref": len(self.refs) - 1}
        name = self.names.get(type(value))
        if name is None:
            return wire.SKIP
        if isinstance(value, enum.Enum):
            return {"$": "task", "cls": name, "member": value.name}
        state = getattr(value, "__dict__", None)
        if type(state) is not dict or len(state) > MAX_ATTRS or not all(
                type(k) is str and _ATTR.fullmatch(k) and not k.startswith("__") for k in state):
            raise wire.UnsupportedValue(f"{name} (its attributes cannot cross)")
        return {"$": "task", "cls": name,
                "state": [[k, enc.enc(v, depth + 1)] for k, v in state.items()]}

    def decode(self, data, d, depth):
        name = data.get("cls")
        cls = self.classes.get(name) if type(name) is str else None
        if cls is None:
            raise wire.WireError(f"task class {str(name)[:80]!r} is not declared here")
        if issubclass(cls, enum.Enum):
            member = data.get("member")
            if type(member) is not str or member not in cls.__members__:
                raise wire.WireError(f"{name}: no member {str(member)[:80]!r}")
            return cls.__members__[member]
        state = data.get("state")
        if type(state) is not list or len(state) > MAX_ATTRS:
            raise wire.WireError(f"{name}: expected a list of attributes")
        obj = object.__new__(cls)
        for pair in state:
            if type(pair) is not list or len(pair) != 2 or type(pair[0]) is not str \
                    or not _ATTR.fullmatch(pair[0]) or pair[0].startswith("__"):
                raise wire.WireError(f"{name}: malformed attribute")
            obj.__dict__[pair[0]] = d.dec(pair[1], depth + 1)
        return obj

    # ------------------------------------------------------------------ the test's functions
    def _definitions(self):
        """(first line -> source of the function defined there, the test's imports, its
        top-level functions other than ``test_*`` by name)."""
        if self._defs is None:
            tree = ast.parse(self.test_source)
            defs = {n.lineno: ast.get_source_segment(self.test_source, n)
                    for n in ast.walk(tree)
                    if isinstance(n, ast.FunctionDef) and not n.decorator_list}
            imports = [ast.get_source_segment(self.test_source, n) for n in tree.body
                       if isinstance(n, (ast.Import, ast.ImportFrom))]
            helpers = {n.name: defs[n.lineno] for n in tree.body
                       if isinstance(n, ast.FunctionDef) and n.lineno in defs
                       and not n.name.startswith("test_")}
            self._defs = (defs, "\n".join(imports), helpers)
        return self._defs

    def decode_callable(self, data, d, depth):
        ref = data.get("ref")
        if type(ref) is not int or ref < 0:
            raise wire.WireError("callable: malformed")
        if self.call is not None:  # the test's side: a stand-in, never the program's code
            return Remote(ref, self.call)
        if self.program is not None and ref < len(self.refs):
            return self.refs[ref]
        raise wire.WireError(f"callable {ref}: not returned here")

    def function(self, name):
        """The program's function a call names: ``$ref:<n>`` (returned earlier), else the
        program's global of that name (None when it has none)."""
        if name.startswith("$ref:"):
            n = name[5:]
            return self.refs[int(n)] if n.isdigit() and int(n) < len(self.refs) else None
        return self.program.get(name) if self.program is not None else None

    def encode_function(self, enc, fn, depth):
        defs, imports, helpers = self._definitions()
        src = defs.get(fn.__code__.co_firstlineno)
        if src is None:
            raise wire.UnsupportedValue(f"function {fn.__name__} (no source of its own)")
        # the test's top-level functions it calls (an oracle built from another) go with it
        used = set(_names(fn.__code__)) - {fn.__name__}
        imports = "\n".join([imports, *(helpers[n] for n in sorted(used) if n in helpers)])
        free = []
        for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
            try:
                free.append([name, enc.enc(cell.cell_contents, depth + 1)])
            except ValueError:  # an empty cell
                raise wire.UnsupportedValue(f"function {fn.__name__} (unbound {name})") from None
        return {"$": "task_fn", "name": fn.__name__, "src": src, "imports": imports,
                "free": free, "defaults": enc.enc(list(fn.__defaults__ or ()), depth + 1)}

    def decode_function(self, data, d, depth):
        if self.program is None:  # the trusted side: never code from the other side
            raise wire.WireError("a function cannot cross to the test")
        name, src, imports = data.get("name"), data.get("src"), data.get("imports")
        free, defaults = data.get("free"), d.dec(data.get("defaults"), depth + 1)
        if not (type(name) is str and _ATTR.fullmatch(name) and type(src) is str
                and type(imports) is str and len(src) + len(imports) < MAX_SOURCE
                and type(free) is list and type(defaults) is list):
            raise wire.WireError("task_fn: malformed")
        names, values = [], []
        for pair in free:
            if type(pair) is not list or len(pair) != 2 or type(pair[0]) is not str \
                    or not _ATTR.fullmatch(pair[0]):
                raise wire.WireError("task_fn: malformed closure")
            names.append(pair[0])
            values.append(d.dec(pair[1], depth + 1))
        space = dict(self.program)
        exec(compile(imports, TEST_FILE, "exec"), space)
        maker = (f"def __qce_make({', '.join(names)}):\n"
                 f"{textwrap.indent(textwrap.dedent(src), '    ')}\n    return {name}\n")
        exec(compile(maker, TEST_FILE, "exec"), space)
        fn = space["__qce_make"](*values)
        fn.__defaults__ = tuple(defaults) or None
        return fn


def _names(code):
    """The global names ``code`` and the code nested in it use."""
    yield from code.co_names
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _names(const)


_CALLABLES = (types.FunctionType, types.MethodType, types.BuiltinFunctionType)


def with_classes(codec, classes, test_source=None, program=None, call=None):
    """``codec`` with the extension for ``classes`` and the task's functions (``codec`` itself
    when there is nothing to add)."""
    ext = TaskValues(classes, test_source, program, call)
    if not ext.classes and test_source is None and program is None:
        return codec
    return wire.Codec((*codec.extensions, ext), codec.limits, codec.opaque)


def program_function(codec, namespace, name):
    """The program's function a call names (see :meth:`TaskValues.function`)."""
    for ext in codec.extensions:
        if isinstance(ext, TaskValues) and ext.program is not None:
            return ext.function(name)
    return namespace.get(name)
