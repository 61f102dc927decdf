"""Every integer constant of the C headers has the same value in the Fortran
module (bindings/fortran/pario.f90), under its Fortran name, unless listed
below; and the module has no PARIO_* constant C lacks. Reads the sources
only: python3 tests/fortran/constants_test.py"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from header_constants import fortran_constants, header_constants  # noqa: E402

# The module's shorter names, as in the README's Fortran examples
# (ior(PARIO_RDWR, PARIO_CREATE)): PARIO_MODE_X is PARIO_X there.
RENAMED = {"PARIO_SIZE_UNKNOWN": "PARIO_UNKNOWN"}
# Deliberately absent: the module has no call that takes them.
NOT_IN_FORTRAN = {
    "PARIO_LOCK_READ": "no pario_array_lock",
    "PARIO_LOCK_WRITE": "no pario_array_lock",
    "PARIO_COUNTER_GLOBAL": "no pario_counter_fetch_add",
}


def fortran_name(c_name):
    if c_name.startswith("PARIO_MODE_"):
        return "PARIO_" + c_name[len("PARIO_MODE_"):]
    return RENAMED.get(c_name, c_name)


def problems(c, fortran):
    """One line per disagreement between the two {name: value} tables."""
    found = []
    for name, value in sorted(c.items()):
        f_name = fortran_name(name)
        if name in NOT_IN_FORTRAN:
            if f_name in fortran:
                found.append(f"{name}: listed as absent from Fortran, but {f_name} is there")
        elif f_name not in fortran:
            found.append(f"{name} = {value}: missing from the Fortran module (as {f_name})")
        elif fortran[f_name] != value:
            found.append(f"{name} = {value}: Fortran's {f_name} is {fortran[f_name]}")
    known = {fortran_name(name) for name in c}
    found += [f"{name}: in the Fortran module, not in the C headers"
              for name in sorted(fortran.keys() - known)]
    found += [f"{name}: listed as absent from Fortran, but not in the C headers"
              for name in sorted(NOT_IN_FORTRAN.keys() - c.keys())]
    return found


def main():
    c, fortran = header_constants(), fortran_constants()
    found = problems(c, fortran)
    for line in found:
        print(f"constants_test: {line}")
    print(f"constants_test: {len(c)} C constants, {len(fortran)} in Fortran, {len(found)} problems")
    return 1 if found or not c else 0


if __name__ == "__main__":
    sys.exit(main())
