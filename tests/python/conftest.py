# Every rank runs the same tests; only rank 0 reports verbosely.
import pario

pario.init()


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
