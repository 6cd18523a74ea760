"""The Python examples in README.md run as written, each in a fresh interpreter as a reader's
would (those marked ``# needs: train`` need the training extra and a few minutes, so only the
AEC examples run here)."""

import pathlib
import re
import subprocess
import sys

import pytest

README = pathlib.Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
QUICK = [block for block in BLOCKS if "# needs: train" not in block]


def test_readme_has_an_aec_example():
    assert any("agent_iter()" in block for block in QUICK)


@pytest.mark.parametrize("block", QUICK, ids=[f"block{i}" for i in range(len(QUICK))])
def test_readme_example_runs(block):
    # Not exec() here: this process has imported mancala_marl already, which would hide an
    # example that only works after an import it does not show.
    proc = subprocess.run([sys.executable, "-c", block], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout  # every example prints what it shows
