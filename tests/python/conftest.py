# Every rank runs the same tests; only rank 0 reports verbosely.
import sys

import pario

pario.init()


def pytest_runtest_logreport(report):
    """A test that fails on one rank leaves the others waiting in a
    collective until the test's timeout, with nothing said. Under mpiexec,
    the first failure is printed and ends the whole job instead."""
    if report.failed and pario.size() > 1:
        sys.stderr.write(f"rank {pario.rank()}: {report.nodeid} failed ({report.when}):\n{report.longreprtext}\n")
        sys.stderr.flush()
        pario.abort(1)


def run_fresh(script, args, **env):
    """Runs a Python script as a singleton pario job of its own (without the
    launcher's environment), with extra environment variables: for settings
    pario reads once at start-up. Returns the CompletedProcess."""
    import os
    import subprocess
    import sys
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("OMPI_", "PMIX_", "PMI_", "HYDRA_"))}
    clean.update(env, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    return subprocess.run([sys.executable, str(script), *map(str, args)], env=clean, capture_output=True,
                          text=True, timeout=120)
