#!/usr/bin/env bash
# The JAX engines and AlphaZero over them on a GPU machine that has jax (CUDA), optax, numba and rich but
# neither network access nor pgx, mctx, pettingzoo, gymnasium or tensorboardX: those travel as
# wheels in .whl/, with a wheel of this project.
#
#   bash benchmarks/gpu.sh prepare      # here, with the network: fill .whl/ (git-ignored)
#   bash benchmarks/gpu.sh speed        # there: random playouts of our four games beside Pgx's connect_four
#                                       # and othello, batches 2^10..2^20 (benchmarks/jax_speed.py)
#   bash benchmarks/gpu.sh bench        # there: the self-play speed benchmark, ours and Pgx's connect_four
#                                       # at 64 simulations, $BATCHES (16384) games at once
#   bash benchmarks/gpu.sh train GAME   # there: train GAME for $MINUTES (default 8), then its network
#                                       # alone (sims=0) against alphabeta:depth=6, $EVAL_GAMES (100)
#                                       # random 4-move openings a seat
#   bash benchmarks/gpu.sh compare GAME # anywhere (PY=.venv/bin/python here): that network with search at
#                                       # 50 ms a move against the shipped alphazero, 200 openings a seat
#
# On the device tool: carry [".whl"], and everything written goes under $OUT (default /tmp/gpu-out).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/gpu-out}
PY=${PY:-python3}
MINUTES=${MINUTES:-8}
GAMES=${GAMES:-8192}          # self-play games at once
EVAL_GAMES=${EVAL_GAMES:-100}  # per seat, against alphabeta:depth=6
OBS=${OBS:-counts}            # the network's input: counts, or moves (what each move does: slower self-play)
WHEELS=(pgx svgwrite mctx gymnasium farama-notifications pettingzoo tensorboardX)

install() {
    "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
    export PYTHONPATH=/tmp/site
    "$PY" -c "import jax, mctx, pgx; print('jax', jax.__version__, jax.devices())"
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
    case "$game" in  # moves a generation: about twice a game's usual length, so most games end within it
        kalah|sungka) moves=128 ;;
        *) moves=256 ;;
    esac
    games=$GAMES
    run="$OUT/runs/$game"
    "$PY" -m mancala_marl.train.cli alphazero "$game" --backend jax --minutes "$MINUTES" --generations 10000 \
        --games "$games" --moves "$moves" --sims 32 --hidden 256,256 --buffer $((2 * games * moves)) \
        --batch-size 4096 --obs-type "$OBS" --opening 8 --eval-every 0 --run-dir "$run" --no-progress
    "$PY" -m mancala_marl.train.cli arena "$game" "alphazero:path=$run/network.npz,sims=0" alphabeta:depth=6 \
        -n "$EVAL_GAMES" --opening 4 --workers "$(nproc)" | tee "$run/network_alone_vs_alphabeta6.txt"
    ;;
compare)
    game=${2:?which game}
    "$PY" -m mancala_marl.train.cli arena "$game" "alphazero:path=$OUT/runs/$game/network.npz,time=0.05" \
        alphazero:time=0.05 -n 200 --opening 4 --workers "$(nproc)" | tee "$OUT/runs/$game/search_vs_shipped.txt"
    ;;
*)
    sed -n '2,17p' "$0"
    exit 2
    ;;
esac
