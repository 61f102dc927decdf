"""The integer constants of pario's public C headers and of the Fortran
module, read from the source tree, so that the bindings can be checked
against C without compiling anything (tests/fortran/constants_test.py,
tests/python/test_constants.py)."""
import ast
import operator
import re
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1]

_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(PARIO_\w+)[ \t]+(.+?)[ \t]*$", re.M)
_ENUM = re.compile(r"\benum\b[^{;]*\{(.*?)\}", re.S)
_ENUMERATOR = re.compile(r"(PARIO_\w+)\s*=\s*([^,]+)")
# Casts to integer types change no value here: ((int64_t)-1) is -1.
_CAST = re.compile(r"\(\s*(?:u?int(?:8|16|32|64)_t|int|long|unsigned|size_t)\s*\)")
_OPERATORS = {ast.BitOr: operator.or_, ast.BitAnd: operator.and_, ast.LShift: operator.lshift,
              ast.Add: operator.add, ast.Sub: operator.sub}


def evaluate(text, known):
    """The value of an integer constant expression: decimal or hex literals,
    names in `known`, unary minus, | & << + - and parentheses. Anything else
    raises ValueError."""
    def value(node):
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return node.value
        if isinstance(node, ast.Name) and node.id in known:
            return known[node.id]
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -value(node.operand)
        if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
            return _OPERATORS[type(node.op)](value(node.left), value(node.right))
        raise ValueError(f"not an integer constant: {text!r}")
    try:
        return value(ast.parse(text.strip(), mode="eval").body)
    except SyntaxError:
        raise ValueError(f"not an integer constant: {text!r}") from None


def header_constants(include=SOURCE / "include" / "pario"):
    """{name: value} of every PARIO_* integer constant (#define or enum) in
    the public headers. Skipped on purpose: export.h (symbol attributes),
    header guards (no value) and the null handles PARIO_*_NULL (pointers).
    Any other define that is not an integer raises, so a new kind of
    constant is a decision, not a silent gap."""
    constants = {}
    for header in sorted(include.glob("*.h")):
        if header.name == "export.h":
            continue
        text = _COMMENT.sub(" ", header.read_text())
        for body in _ENUM.findall(text):
            for name, expr in _ENUMERATOR.findall(body):
                constants[name] = evaluate(expr, constants)
        for name, expr in _DEFINE.findall(text):
            if not name.endswith("_NULL"):
                constants[name] = evaluate(_CAST.sub("", expr), constants)
    return constants


def fortran_constants(source=SOURCE / "bindings" / "fortran" / "pario.f90"):
    """{NAME: value} of every PARIO_* integer parameter of a Fortran source
    (names upper-cased, kind suffixes such as _int64 dropped)."""
    text = re.sub(r"!.*", "", source.read_text())  # comments (no '!' in parameter statements)
    text = re.sub(r"&[ \t]*\n[ \t]*&?", " ", text)  # continuation lines joined
    constants = {}
    for entries in re.findall(r"^[ \t]*integer\b[^:\n]*\bparameter\b[^:\n]*::(.*)$", text, re.M | re.I):
        for name, expr in re.findall(r"(\w+)\s*=\s*([^,]+)", entries):
            if name.upper().startswith("PARIO_"):
                constants[name.upper()] = evaluate(re.sub(r"(\d)_\w+", r"\1", expr), constants)
    return constants
