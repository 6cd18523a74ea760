"""``python -m tests.golden --regenerate``: rewrite the golden playthroughs (after a rule change
that is meant); ``python -m tests.golden`` alone lists them."""

import argparse

from . import cases, path_of, regenerate

parser = argparse.ArgumentParser(prog="python -m tests.golden", description=__doc__)
parser.add_argument("--regenerate", action="store_true", help="record every game again and overwrite its file")
if parser.parse_args().regenerate:
    for path in regenerate():
        print(f"wrote {path} ({path.stat().st_size} bytes)")
else:
    for name, k, rules in cases():
        print(path_of(name, k), rules)
