"""The wheel as users get it (``make test-package``): ``check_wheel.sh`` builds the sdist and wheel,
installs the wheel into fresh virtualenvs and uses it from outside the repository; it prints
what it checks and stops at the first failure."""

import pathlib
import subprocess
import sys

import pytest

SCRIPT = pathlib.Path(__file__).with_name("check_wheel.sh")


@pytest.mark.packaging
def test_the_wheel_installs_and_works_as_users_get_it():
    python = getattr(sys, "_base_executable", sys.executable)  # a plain interpreter, not this venv's
    proc = subprocess.run(["bash", str(SCRIPT), python], capture_output=True, text=True, timeout=1500)
    print(proc.stdout)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert proc.stdout.rstrip().endswith("packaging checks passed")
