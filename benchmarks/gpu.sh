#!/usr/bin/env bash
# The JAX engines and AlphaZero over them on a GPU machine that has jax (CUDA), optax, numba and rich but
# neither network access nor pgx, mctx, pettingzoo, gymnasium or tensorboardX: those travel as
# wheels in .whl/, with a wheel of this project.
#
#   bash benchmarks/gpu.sh prepare      # here, with the network: fill .whl/ (git-ignored)
#   bash benchmarks/gpu.sh session      # there, in ONE call of at most 9.5 minutes ($SESSION_SECONDS, 560): the
#                                       # training loop's efficiency on Kalah ($BENCH_SECONDS, 80), the random
#                                       # playouts of Sungka, Oware and Kalah at 2^20 games ($SPEED_SECONDS, 45), then the games
#                                       # of $TRAIN_GAMES (all but Sungka) trained one after another in one
#                                       # process (benchmarks/gpu_train.py: an equal share of what is left each,
#                                       # about 2.5 minutes; $SIMS, $HIDDEN, $REUSE, $SESSION_GAMES games at once),
#                                       # all packed into $OUT/gpu-session.tgz (a device brings back few files)
#   bash benchmarks/gpu.sh collect TGZ [NAME]  # here: unpack a session into benchmarks/results/gpu/NAME/
#                                       # (default session; $DEST: another folder), then each network
#                                       # alone against alphabeta:depth=6 and with 50 ms of search against the
#                                       # shipped alphazero, $EVAL_GAMES (200) random 4-move openings a seat
#   REHEARSE=1 bash benchmarks/gpu.sh session   # here, on the CPU, without .whl/: the same steps, tiny
#   bash benchmarks/gpu.sh speed        # there: random playouts of our four games beside Pgx's connect_four
#                                       # and othello, batches 2^10..2^20 (benchmarks/jax_speed.py)
#   bash benchmarks/gpu.sh bench        # there: the self-play speed benchmark, ours and Pgx's connect_four
#                                       # at 64 simulations, $BATCHES (16384) games at once
#   bash benchmarks/gpu.sh train GAME   # there: train GAME alone for $MINUTES (default 8), as the session
#                                       # does, then its network alone (sims=0) against alphabeta:depth=6
#   bash benchmarks/gpu.sh compare GAME [NETWORK]  # anywhere (PY=.venv/bin/python here): the network
#                                       # (default: collect's) with search at 50 ms a move against the
#                                       # shipped alphazero, $EVAL_GAMES openings a seat
#
# On the device tool: carry [".whl"], and everything written goes under $OUT (default /tmp/gpu-out).
# Python runs with -P: from the repository's root, its mancala_marl/ folder (without train/ and
# agents/, which the wheel installs under it) would hide the installed package.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/gpu-out}
if [ -n "${REHEARSE:-}" ]; then  # a smoke run of a call on this CPU, tiny and short (session: about 4 minutes)
    PY=${PY:-.venv-jax/bin/python}
    : "${SESSION_SECONDS:=200}" "${BENCH_SECONDS:=70}" "${BENCH_BATCH:=32}" "${BENCH_MOVES:=32}"
    : "${SESSION_GAMES:=32}" "${SIMS:=4}" "${HIDDEN:=32}" "${MINUTES:=1}" "${SPEED_LOG2:=10}"
fi
PY=${PY:-python3}
MINUTES=${MINUTES:-8}
EVAL_GAMES=${EVAL_GAMES:-200}  # openings a seat, against alphabeta:depth=6 and the shipped alphazero
# the training recipe (benchmarks/gpu_train.py has the rest of it):
SIMS=${SIMS:-32}              # simulations per self-play move (64: no better on a CPU, docs/research/alphazero.md)
HIDDEN=${HIDDEN:-256,256}     # the network's hidden layers
REUSE=${REUSE:-4}             # times each new position is drawn for the fit (4: faster learning a position on a CPU)
WHEELS=(pgx svgwrite mctx gymnasium farama-notifications pettingzoo tensorboardX)
# session and collect: these games; not Sungka, whose network cannot learn from counts and whose other
# inputs are too slow to search with here (docs/research/alphazero.md)
read -r -a GAME_NAMES <<< "${TRAIN_GAMES:-kalah togyz_kumalak oware}"

alone_vs_alphabeta6() {  # GAME NETWORK: the network without search against alphabeta:depth=6
    "$PY" -P -m mancala_marl.cli arena "$1" "alphazero:path=$2,sims=0" alphabeta:depth=6 \
        -n "$EVAL_GAMES" --opening 4 --workers "$(nproc)"
}

search_vs_shipped() {  # GAME NETWORK: the network with 50 ms of search a move against the shipped alphazero's
    "$PY" -P -m mancala_marl.cli arena "$1" "alphazero:path=$2,time=0.05" alphazero:time=0.05 \
        -n "$EVAL_GAMES" --opening 4 --workers "$(nproc)"
}

install() {
    if [ -n "${REHEARSE:-}" ]; then  # the checkout's own virtualenv, which has everything
        "$PY" -c "import jax; print('rehearsal: jax', jax.__version__, jax.devices())"
        return
    fi
    "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
    export PYTHONPATH=/tmp/site
    "$PY" -P -c "import jax, mancala_marl; print('jax', jax.__version__, jax.devices(), 'mancala_marl from', mancala_marl.__file__)"
}

case "${1:-}" in
prepare)
    grep -qx '/.whl/' .git/info/exclude 2>/dev/null || echo '/.whl/' >> .git/info/exclude
    rm -rf .whl && mkdir -p .whl
    # pure-Python wheels: any Python 3.12 takes them
    "$PY" -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 -d .whl "${WHEELS[@]}"
    "$PY" -m pip wheel -q --no-deps -w .whl .  # build isolation: setuptools >= 77 from the index
    ls -l .whl
    ;;
speed)
    install
    "$PY" benchmarks/jax_speed.py --min-log2 10 --max-log2 20 --results-dir "$OUT/results/jax_speed"
    ;;
bench)
    install
    mkdir -p "$OUT/results"
    # 16,384 games at once, as the first probe of this on an H200 ran; BATCHES="8192 16384" for both
    for batch in ${BATCHES:-16384}; do
        "$PY" benchmarks/alphazero_jax_speed.py --batch "$batch" --sims 64 --moves 32 \
            --results-dir "$OUT/results/batch-$batch"
    done
    ;;
train)
    game=${2:?which game: kalah, sungka, togyz_kumalak or oware}
    install
    "$PY" -P benchmarks/gpu_train.py --games "$game" --seconds $((MINUTES * 60)) --out "$OUT/runs" \
        --selfplay-games "${SESSION_GAMES:-8192}" --sims "$SIMS" --hidden "$HIDDEN" --reuse "$REUSE"
    alone_vs_alphabeta6 "$game" "$OUT/runs/$game/network.npz" | tee "$OUT/runs/$game/network_alone_vs_alphabeta6.txt"
    ;;
session)
    deadline=$((SECONDS + ${SESSION_SECONDS:-560}))
    # a device brings back few files from $OUT: the session writes elsewhere, then packs it all
    # into $OUT/gpu-session.tgz; its log goes to $OUT as it runs, in case the call is cut short
    final=$OUT OUT=${WORK:-/tmp/gpu-session}
    rm -rf "$OUT" && mkdir -p "$OUT/logs" "$final"
    exec > >(tee "$final/session.log") 2>&1
    install
    nvidia-smi -L 2>/dev/null || true
    # the loop's efficiency first: the whole training loop against its search alone, Kalah at the
    # training's moves a generation (capped, so that training keeps its time; BENCH_SECONDS=0: none)
    if [ "${BENCH_SECONDS:-80}" -gt 0 ]; then
        timeout "${BENCH_SECONDS:-80}" "$PY" benchmarks/alphazero_jax_speed.py --games kalah --loop \
            --batch "${BENCH_BATCH:-4096}" --sims "$SIMS" --moves "${BENCH_MOVES:-128}" --hidden "$HIDDEN" --reps 2 \
            --results-dir "$OUT/results" || echo "bench: stopped (exit $?)"
    fi
    # the slow engines' random playouts (issue 41, section 4), 2^20 games at once ($SPEED_SECONDS, 45; 0: none)
    if [ "${SPEED_SECONDS:-45}" -gt 0 ]; then
        timeout "${SPEED_SECONDS:-45}" "$PY" benchmarks/jax_speed.py --games ${SPEED_GAMES:-sungka oware kalah} \
            --min-log2 "${SPEED_LOG2:-20}" --max-log2 "${SPEED_LOG2:-20}" --reps 2 --numba-size 0 \
            --results-dir "$OUT/results/jax_speed" || echo "speed: stopped (exit $?)"
    fi
    # then the games one after another, in one process; a SIGINT near the deadline finishes the
    # generation under way and saves it
    left=$((deadline - SECONDS - ${RESERVE_SECONDS:-30}))
    echo "training ${GAME_NAMES[*]} one after another in $left seconds"
    timeout -s INT -k 30 $((left + 15)) "$PY" -P benchmarks/gpu_train.py --seconds "$left" --out "$OUT/runs" \
        --games "${GAME_NAMES[@]}" --selfplay-games "${SESSION_GAMES:-8192}" --sims "$SIMS" --hidden "$HIDDEN" \
        --reuse "$REUSE" 2>&1 | tee "$OUT/logs/training.log" || echo "training: stopped (exit $?)"
    cp "$final/session.log" "$OUT/logs/"
    # network.npz is written atomically after each generation: a run cut off still left its last one
    (cd "$OUT" && tar czf "$final/gpu-session.tgz" logs results runs/*/config.json runs/*/network.npz \
        runs/*/tb 2>/dev/null || true)
    ls -l "$final"
    ;;
collect)
    tgz=${2:?the gpu-session.tgz a session brought back}
    dest=${DEST:-benchmarks/results/gpu/${3:-session}}  # a folder a session: h200-first-session, h200-loop...
    PY=${PY_COLLECT:-.venv/bin/python}
    mkdir -p "$dest" && tar xzf "$tgz" -C "$dest"
    for game in "${GAME_NAMES[@]}"; do
        network=$dest/runs/$game/network.npz
        [ -f "$network" ] || { echo "$game: no network in $tgz"; continue; }
        alone_vs_alphabeta6 "$game" "$network" | tee "$dest/runs/$game/network_alone_vs_alphabeta6.txt"
        search_vs_shipped "$game" "$network" | tee "$dest/runs/$game/search_vs_shipped.txt"
    done
    ;;
compare)
    game=${2:?which game}
    network=${3:-benchmarks/results/gpu/session/runs/$game/network.npz}  # where collect put it by default
    search_vs_shipped "$game" "$network" | tee "$(dirname "$network")/search_vs_shipped.txt"
    ;;
*)
    sed -n '2,27p' "$0"
    exit 2
    ;;
esac
