"""The extension's constants are the C headers' (parsed from the source
tree), and the package has an exception for every status code and a dtype
for every element type."""
import sys
from pathlib import Path

from pario import _arrays, _errors, _pario

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from header_constants import header_constants  # noqa: E402

HEADER = header_constants()
EXPORTED = {name: getattr(_pario, name) for name in dir(_pario) if name.isupper()}


def header_group(prefix):
    return {name: value for name, value in HEADER.items() if name.startswith(prefix)}


def test_every_exported_constant_has_the_headers_value():
    assert EXPORTED
    wrong = {name: (value, HEADER.get("PARIO_" + name)) for name, value in EXPORTED.items()
             if HEADER.get("PARIO_" + name) != value}
    assert not wrong, "extension value, header value"


def test_every_mode_type_and_status_code_is_exported():
    wanted = {"OK"} | {name[len("PARIO_"):] for prefix in ("PARIO_MODE_", "PARIO_TYPE_", "PARIO_ERR_")
                       for name in header_group(prefix)}
    assert wanted - EXPORTED.keys() == set()


def test_each_status_code_has_its_own_exception():
    assert sorted(_errors._ERRORS) == sorted(header_group("PARIO_ERR_").values())
    assert len(set(_errors._ERRORS.values())) == len(_errors._ERRORS)


def test_each_element_type_has_one_dtype():
    assert sorted(_arrays._TYPES.values()) == sorted(header_group("PARIO_TYPE_").values())
