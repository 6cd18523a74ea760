#!/usr/bin/env bash
# The package as users get it: build the sdist and wheel, install the wheel (not editable) into a
# fresh virtualenv with the core dependencies only, and use it from outside the repository.
#   - the wheel adds one top-level package, mancala_marl, and builds without warnings from our config
#   - the README's AEC example and `mancala-marl arena kalah greedy random -n 5` run; importing
#     the package imports no torch
#   - commands that need the [train] extra say so in one line, with status 2
#   - a read-only install, used by a user who can write no cache anywhere, still works (numba
#     compiles without a cache), and the first call's cost is printed
#   - with [train] added (CPU torch first) the shipped agents play
# Usage: tests/packaging/check_wheel.sh [PYTHON]   (make test-package)
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
python=${1:-python3}
work=$(mktemp -d /tmp/mancala-wheel.XXXXXX)
chmod 755 "$work"  # the unprivileged user below reads the virtualenv
trap 'rm -rf "$work"' EXIT
step() { printf '\n== %s\n' "$*"; }
fail() { echo "FAILED: $*" >&2; exit 1; }

step "build the sdist and the wheel"
"$python" -m venv "$work/build-env"
"$work/build-env/bin/pip" install -q --upgrade pip build
"$work/build-env/bin/python" -m build --outdir "$work/dist" "$repo" > "$work/build.log" 2>&1 \
    || { cat "$work/build.log"; fail "python -m build"; }
# (PYTHONDONTWRITEBYTECODE makes setuptools say that it skips byte-compiling: not our config)
if grep -i "warn" "$work/build.log" | grep -v "byte-compiling is disabled"; then
    fail "the build warns (above)"
fi
wheel=$(ls "$work"/dist/*.whl)
ls "$work"/dist/*.tar.gz > /dev/null
tops=$(unzip -Z1 "$wheel" | cut -d/ -f1 | grep -v '\.dist-info$' | sort -u | tr '\n' ' ')
[ "$tops" = "mancala_marl " ] || fail "the wheel's top-level entries are: $tops"
echo "wheel $(basename "$wheel"): top level mancala_marl only"

step "install the wheel with the core dependencies only"
"$python" -m venv "$work/core"
"$work/core/bin/pip" install -q --upgrade pip
"$work/core/bin/pip" install -q "$wheel"
site=$("$work/core/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")
for name in agents train; do
    [ ! -e "$site/$name" ] || fail "the install added a top-level $name package"
done
cd "$work"  # outside the repository: nothing there can shadow the install
mm="$work/core/bin/mancala-marl"

step "what numba's compilation costs the first call"
timed() { local start end; start=$(date +%s%N); "$@" > /dev/null; end=$(date +%s%N); echo $(( (end - start) / 1000000 )); }
echo "arena kalah greedy random -n 5: $(timed "$mm" arena kalah greedy random -n 5) ms with an empty cache," \
     "$(timed "$mm" arena kalah greedy random -n 5) ms once cached"

step "README's AEC example and an arena, outside the repository"
"$python" - "$repo/README.md" > "$work/aec_example.py" <<'PY'
import re, sys
blocks = re.findall(r"```python\n(.*?)```", open(sys.argv[1]).read(), flags=re.S)
print(next(b for b in blocks if "agent_iter()" in b))
PY
"$work/core/bin/python" "$work/aec_example.py" | tail -n 2
"$work/core/bin/python" -c "import sys, mancala_marl; assert 'torch' not in sys.modules; print('mancala_marl', mancala_marl.__version__)"
"$mm" --version
"$mm" arena kalah greedy random -n 5

step "commands that need [train] name the extra in one line"
expect_hint() {
    set +e; "$mm" "$@" > "$work/out" 2> "$work/err"; status=$?; set -e
    [ "$status" = 2 ] || { cat "$work/err"; fail "mancala-marl $*: status $status, expected 2"; }
    [ "$(wc -l < "$work/err")" = 1 ] || { cat "$work/err"; fail "mancala-marl $*: more than one line"; }
    grep -q "pip install 'mancala-marl\[train\]'" "$work/err" || { cat "$work/err"; fail "mancala-marl $*: no hint"; }
    echo "mancala-marl $*: $(cat "$work/err")"
}
expect_hint train kalah --timesteps 10
expect_hint distill kalah
expect_hint alphazero kalah
expect_hint plot "$work"
expect_hint demo
expect_hint arena sungka pretrained random -n 5
expect_hint arena kalah "model:$work/some.zip" random
"$mm" arena kalah alphazero:sims=8 random -n 2 > /dev/null  # the shipped AlphaZero network needs no extra
set +e; "$work/core/bin/python" -c "import mancala_marl.train.vector_env" 2> "$work/err"; set -e
grep -q "MissingExtraError: mancala_marl.train.vector_env (an SB3 VecEnv) needs the \[train\] extra" "$work/err" \
    || { cat "$work/err"; fail "importing vector_env without [train]: no hint"; }

step "a read-only install used by someone who can write no cache (numba compiles without one)"
chmod -R a-w "$work/core"
find "$site/mancala_marl" -name "*.nb[ic]" -delete 2>/dev/null || true
as_user=()
if [ "$(id -u)" = 0 ]; then as_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups --); fi
start=$(date +%s%N)
# (random against random: the kernels of a game's moves compiled with no cache to write; a search
# compiles every game's rules into it, the minute and more measured above, once)
env -u NUMBA_CACHE_DIR HOME=/nonexistent "${as_user[@]}" "$mm" arena kalah random random -n 5 --json > "$work/ro.json"
end=$(date +%s%N)
grep -q '"total_games": 10' "$work/ro.json" || fail "read-only arena"
echo "read-only install, no cache anywhere: the arena command took $(( (end - start) / 1000000 )) ms"
chmod -R u+w "$work/core"

step "the labelled positions ship, and grade with the core install alone"
"$mm" positions kalah > "$work/positions.txt"
grep -q "^kalah: 5000 positions" "$work/positions.txt" || fail "the Kalah labelled set is missing from the wheel"
"$mm" grade oware random --json > "$work/grade.json"
grep -q '"source": "set"' "$work/grade.json" || fail "grade on the shipped Oware set"

step "add [train] (CPU torch first) and play the shipped agents"
# as the Makefile installs it: PyTorch's CPU index, or pip's find-links where it cannot be reached
"$work/core/bin/pip" install -q --retries 0 torch --index-url "${TORCH_INDEX:-https://download.pytorch.org/whl/cpu}"
"$work/core/bin/pip" install -q "$wheel[train]"
"$mm" arena sungka pretrained random -n 5
echo "packaging checks passed"
