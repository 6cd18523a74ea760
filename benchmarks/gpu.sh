#!/usr/bin/env bash
# The JAX engines and AlphaZero over them on a GPU machine that has jax (CUDA), optax, numba and rich but
# neither network access nor pgx, mctx, pettingzoo, gymnasium or tensorboardX: those travel as
# wheels in .whl/, with a wheel of this project.
#
#   bash benchmarks/gpu.sh prepare      # here, with the network: fill .whl/ (git-ignored)
#   bash benchmarks/gpu.sh session      # there, in ONE call (about 9.5 minutes, so it fits a 15-minute lease):
#                                       # `bench` with --breakdown (and again with CUDA graphs), then the games
#                                       # of $TRAIN_GAMES (all but Sungka) trained side by side on the one GPU for
#                                       # what is left of $SESSION_SECONDS (570) ($SIMS, $HIDDEN, $REUSE,
#                                       # $SESSION_GAMES games each), all packed into $OUT/gpu-session.tgz
#                                       # (what comes back from a device is few files)
#   bash benchmarks/gpu.sh collect TGZ  # here: unpack a session into benchmarks/results/gpu/, then each
#                                       # network alone against alphabeta:depth=6 ($EVAL_GAMES a seat)
#   bash benchmarks/gpu.sh speed        # there: random playouts of our four games beside Pgx's connect_four
#                                       # and othello, batches 2^10..2^20 (benchmarks/jax_speed.py)
#   bash benchmarks/gpu.sh bench        # there: the self-play speed benchmark, ours and Pgx's connect_four
#                                       # at 64 simulations, $BATCHES (16384) games at once
#   bash benchmarks/gpu.sh train GAME   # there: train GAME for $MINUTES (default 8), then its network
#                                       # alone (sims=0) against alphabeta:depth=6, $EVAL_GAMES (100)
#                                       # random 4-move openings a seat
#   bash benchmarks/gpu.sh compare GAME [NETWORK]  # anywhere (PY=.venv/bin/python here): the network
#                                       # (default: collect's) with search at 50 ms a move against the
#                                       # shipped alphazero, 200 openings a seat
#
# On the device tool: carry [".whl"], and everything written goes under $OUT (default /tmp/gpu-out).
# Python runs with -P: from the repository's root, its mancala_marl/ folder (without train/ and
# agents/, which the wheel installs under it) would hide the installed package.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/gpu-out}
PY=${PY:-python3}
MINUTES=${MINUTES:-8}
GAMES=${GAMES:-8192}          # self-play games at once (session: $SESSION_GAMES, 4096, each run; half that
                              # where games run 256 moves, so every generation has the same moves)
EVAL_GAMES=${EVAL_GAMES:-100}  # per seat, against alphabeta:depth=6
OBS=${OBS:-counts}            # the network's input: counts, or moves (what each move does: slower self-play);
                              # OBS_<game> for one game: Togyz Kumalak reads moves unless told otherwise
                              # (on counts it learned next to nothing in 20 CPU minutes, docs/research/alphazero.md)
OBS_togyz_kumalak=${OBS_togyz_kumalak:-moves}
SIMS=${SIMS:-32}              # simulations per self-play move in training (64: no better on a CPU, docs/research/alphazero.md)
HIDDEN=${HIDDEN:-256,256}     # the network's hidden layers
REUSE=${REUSE:-4}             # times each new position is drawn for the fit (4: faster learning a position on a CPU)
WHEELS=(pgx svgwrite mctx gymnasium farama-notifications pettingzoo tensorboardX)
# session and collect: these games; not Sungka, whose network cannot learn from counts and whose other
# inputs are too slow to search with here (docs/research/alphazero.md)
read -r -a GAME_NAMES <<< "${TRAIN_GAMES:-kalah togyz_kumalak oware}"

moves_for() {  # moves a generation: about twice a game's usual length, so most games end within it
    case "$1" in
        kalah|sungka) echo 128 ;;
        *) echo 256 ;;
    esac
}

obs_for() {  # the network's input for GAME: $OBS_GAME, else $OBS
    local name="OBS_$1"
    echo "${!name:-$OBS}"
}

train_run() {  # GAME GAMES MINUTES: one training run into $OUT/runs/GAME
    local game=$1 games=$2 minutes=$3 moves
    moves=$(moves_for "$game")
    # RUN_TIMEOUT (session): Ctrl-C at the session's end, which stops a run as its checkpoints allow
    timeout -s INT -k 15 "${RUN_TIMEOUT:-0}" \
        "$PY" -P -m mancala_marl.train.cli alphazero "$game" --backend jax --minutes "$minutes" --generations 10000 \
        --games "$games" --moves "$moves" --sims "$SIMS" --hidden "$HIDDEN" --reuse "$REUSE" \
        --buffer $((2 * games * moves)) --batch-size 4096 --obs-type "$(obs_for "$game")" --opening 8 --eval-every 0 \
        --run-dir "$OUT/runs/$game" --no-progress
}

alone_vs_alphabeta6() {  # GAME NETWORK: the network without search against alphabeta:depth=6
    "$PY" -P -m mancala_marl.train.cli arena "$1" "alphazero:path=$2,sims=0" alphabeta:depth=6 \
        -n "$EVAL_GAMES" --opening 4 --workers "$(nproc)"
}

install() {
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
    train_run "$game" "$GAMES" "$MINUTES"
    alone_vs_alphabeta6 "$game" "$OUT/runs/$game/network.npz" | tee "$OUT/runs/$game/network_alone_vs_alphabeta6.txt"
    ;;
session)
    deadline=$((SECONDS + ${SESSION_SECONDS:-570}))
    # a device brings back at most 8 files from $OUT: the session writes elsewhere, then packs it all
    # into $OUT/gpu-session.tgz; its log goes to $OUT as it runs, in case the call is cut short
    final=$OUT OUT=${WORK:-/tmp/gpu-session}
    rm -rf "$OUT" && mkdir -p "$OUT/logs" "$final"
    exec > >(tee "$final/session.log") 2>&1
    install
    nvidia-smi -L 2>/dev/null || true
    # the self-play speed target first, alone on the GPU, with where a move's time goes (--breakdown);
    # capped, so that training keeps its time (BENCH_SECONDS=0: no benchmark)
    if [ "${BENCH_SECONDS:-210}" -gt 0 ]; then
        timeout "${BENCH_SECONDS:-210}" "$PY" benchmarks/alphazero_jax_speed.py --batch "${BENCH_BATCH:-16384}" \
            --sims 64 --moves 16 --reps 2 --breakdown --results-dir "$OUT/results" || echo "bench: stopped (exit $?)"
        # mctx's vmapped while_loops wait on the host at every step (docs/research/alphazero.md): the
        # same two games with those loops recorded into CUDA graphs, if this XLA takes the flag
        XLA_FLAGS="${XLA_FLAGS:-} --xla_gpu_enable_command_buffer=+WHILE,+CONDITIONAL" \
            timeout "${GRAPH_BENCH_SECONDS:-60}" "$PY" benchmarks/alphazero_jax_speed.py --games kalah connect_four \
            --batch "${BENCH_BATCH:-16384}" --sims 64 --moves 16 --reps 2 --results-dir "$OUT/results/cuda-graphs" \
            || echo "bench with CUDA graphs: stopped (exit $?)"
    fi
    # then the games ($TRAIN_GAMES) side by side; for what is left of the
    # session, less ${RESERVE_SECONDS:-100} s for compiling, the last checkpoints and packing
    minutes=$(awk "BEGIN {print int(($deadline - $SECONDS - ${RESERVE_SECONDS:-100}) / 6) / 10}")  # tenths, down
    echo "training each game for $minutes minutes"
    # each run its share of the GPU's memory (jax takes 75% by default, which would leave the next none)
    XLA_PYTHON_CLIENT_MEM_FRACTION=$(awk "BEGIN {print 0.8 / ${#GAME_NAMES[@]}}")
    export XLA_PYTHON_CLIENT_MEM_FRACTION RUN_TIMEOUT=$((deadline - SECONDS - 25))
    runs=()
    for game in "${GAME_NAMES[@]}"; do
        # every game the same moves a generation: $SESSION_GAMES games of Kalah's 128 moves
        train_run "$game" $((${SESSION_GAMES:-4096} * 128 / $(moves_for "$game"))) "$minutes" \
            > "$OUT/logs/$game.log" 2>&1 &
        runs+=($!)
    done
    wait "${runs[@]}" || true  # not a bare wait: that would wait for the log's tee too
    tail -n 3 "$OUT"/logs/*.log
    # network.npz is written atomically after each generation: a run cut off still left its last one
    cp "$final/session.log" "$OUT/logs/"
    (cd "$OUT" && tar czf "$final/gpu-session.tgz" logs results runs/*/config.json runs/*/network.npz \
        2>/dev/null || true)
    ls -l "$final"
    ;;
collect)
    tgz=${2:?the gpu-session.tgz a session brought back}
    dest=${DEST:-benchmarks/results/gpu}
    mkdir -p "$dest" && tar xzf "$tgz" -C "$dest"
    for game in "${GAME_NAMES[@]}"; do
        [ -f "$dest/runs/$game/network.npz" ] || { echo "$game: no network in $tgz"; continue; }
        alone_vs_alphabeta6 "$game" "$dest/runs/$game/network.npz" | tee "$dest/runs/$game/network_alone_vs_alphabeta6.txt"
    done
    ;;
compare)
    game=${2:?which game}
    network=${3:-benchmarks/results/gpu/runs/$game/network.npz}  # where collect put it
    "$PY" -P -m mancala_marl.train.cli arena "$game" "alphazero:path=$network,time=0.05" \
        alphazero:time=0.05 -n 200 --opening 4 --workers "$(nproc)" | tee "$(dirname "$network")/search_vs_shipped.txt"
    ;;
*)
    sed -n '2,25p' "$0"
    exit 2
    ;;
esac
