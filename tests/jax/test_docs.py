"""docs/jax.md's Python blocks run, in order, in one namespace, as a reader would paste them."""

import re
from pathlib import Path

PAGE = Path(__file__).resolve().parents[2] / "docs" / "jax.md"


def test_every_python_block_of_the_page_runs(capsys):
    blocks = re.findall(r"```python\n(.*?)```", PAGE.read_text(), flags=re.S)
    assert len(blocks) >= 3
    namespace = {}
    for block in blocks:
        exec(compile(block, str(PAGE), "exec"), namespace)
    out = capsys.readouterr().out
    assert "('kalah', 'sungka', 'togyz_kumalak', 'oware', 'family')" in out
