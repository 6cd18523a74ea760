"""Endgame databases and perfect play (mancala_marl.endgame, the ``perfect`` policy, ``mancala-marl solve``),
tested as Pgx and OpenSpiel test their solvers: against an independent exact search (the ``solver``
policy, alpha-beta to the end of the game) on thousands of random positions of every rule set,
against the published values of Kalah, and on every way a database file can be wrong.

Databases are small (a few hundred thousand boards) and built into temporary folders, so the
module runs in well under a minute; the published Kalah(6,4) and our rules' Kalah(6,3) against
``solver`` are marked slow.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import shutil

import numpy as np
import pytest

from mancala_marl.agents import make_policy
from mancala_marl import atomic
from mancala_marl.errors import NotSolved
from mancala_marl.endgame import Database, DatabaseFileError, build, database, file_path, files, kalah_database
from mancala_marl.endgame.ranking import composition_table, index, layer_sizes, layout, next_side, rank, unrank
from mancala_marl.games import make_game
from mancala_marl import cli

RULE_SETS = [{"empty_capture": capture, "end_rule": end} for capture in (False, True) for end in ("either", "mover")]
RULE_IDS = [f"capture={r['empty_capture']}-end={r['end_rule']}" for r in RULE_SETS]
# (pits, seeds a pit at the start, database size): boards of the databases that agree with ``solver``
BOARDS = [(4, 3, 12), (6, 2, 10)]
POSITIONS = 1000  # per board, rule set and way of drawing them: 4,000 positions per rule set in all


@pytest.fixture(scope="session")
def db_folder(tmp_path_factory):
    return tmp_path_factory.mktemp("endgame")


@pytest.fixture(scope="session")
def databases(db_folder):
    """(pits, max_seeds, empty_capture, end_rule) -> Database, built once into a temporary folder."""
    built = {}

    def get(pits, max_seeds, **rules):
        key = (pits, max_seeds, rules["empty_capture"], rules["end_rule"])
        if key not in built:
            built[key] = database(make_game("kalah", pits=pits, seeds=1, **rules), max_seeds, folder=db_folder)
        return built[key]

    return get


@pytest.fixture(scope="session")
def cache_folder(tmp_path_factory):
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(autouse=True)
def private_cache(cache_folder, monkeypatch):
    """Nothing is written to the user's cache: the ``perfect`` policy and ``solve`` build here
    (one folder for the session, so a database is built once)."""
    monkeypatch.setenv("MANCALA_MARL_CACHE", str(cache_folder))


def final_margin(game, db, state) -> int:
    """The mover's final margin: the stores as they stand plus the database's margin to come."""
    stores = game.scores(state)
    mover = game.to_move(state)
    return stores[mover] - stores[1 - mover] + db.value(state)


def played_positions(game, max_seeds, count, rng):
    """``count`` positions of random games from the start, each with at most ``max_seeds`` seeds
    in the pits: from every game, the positions from the first that fits to the end."""
    found = []
    while len(found) < count:
        state = game.init()
        while not game.is_terminal(state) and len(found) < count:
            if game.seeds_in_play(state) <= max_seeds:
                found.append(state.copy())
            game.apply(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
    return found


def random_boards(game, max_seeds, count, rng):
    """``count`` states made by ``game.from_board``: up to ``max_seeds`` seeds spread at random
    over the pits, random stores within the game's seeds, either player to move; only those
    ``game.state_fault`` accepts."""
    pits = game.pits
    found = []
    while len(found) < count:
        n = int(rng.integers(1, max_seeds + 1))
        cells = rng.multinomial(n, rng.dirichlet(np.ones(2 * pits)))  # varied shapes, not only flat ones
        stored = int(rng.integers(0, game.total_seeds - n + 1))
        first = int(rng.integers(0, stored + 1))
        board = np.concatenate([cells[:pits], [first], cells[pits:], [stored - first]])
        state = game.from_board(board, to_move=int(rng.integers(0, 2)))
        if game.state_fault(state) is None:
            found.append(state)
    return found


def child_value(solver, game, state, pit) -> int:
    """The mover's exact final margin after ``pit``, from ``solver``'s value of the child."""
    mover = game.to_move(state)
    child = game.apply(state.copy(), pit)
    if game.is_terminal(child):
        stores = game.scores(child)
        return stores[mover] - stores[1 - mover]
    value = solver.value(game, child)
    return value if game.to_move(child) == mover else -value


# -- 1. ranking ------------------------------------------------------------------------------------

@pytest.mark.parametrize("pits", [1, 2, 3, 4])
def test_sides_rank_unrank_and_step_in_lexicographic_order(pits):
    table = composition_table(pits, 8)
    for seeds in range(9):
        count = int(table[pits, seeds])
        assert count == math.comb(seeds + pits - 1, pits - 1)
        side = np.zeros(pits, dtype=np.int32)
        unrank(0, side, 0, pits, seeds, table)
        assert side.tolist() == [0] * (pits - 1) + [seeds]  # rank 0: every seed in the last pit
        previous = None
        for r in range(count):
            assert side.sum() == seeds and (side >= 0).all()
            assert rank(side, 0, pits, seeds, table) == r
            again = np.full(pits, -1, dtype=np.int32)
            unrank(r, again, 0, pits, seeds, table)
            assert again.tolist() == side.tolist()
            if previous is not None:
                assert previous < side.tolist()  # lexicographic order
            previous = side.tolist()
            stepped = next_side(side, 0, pits)
            assert stepped == (r < count - 1)
        assert previous == [seeds] + [0] * (pits - 1)  # the last: every seed in the first pit


def test_sides_rank_inside_a_longer_array():
    # the kernels rank the second half of a board: ``first`` is honoured and the rest left alone
    table = composition_table(3, 5)
    board = np.array([9, 9, 9, 1, 2, 2], dtype=np.int32)
    r = rank(board, 3, 3, 5, table)
    out = np.array([9, 9, 9, 0, 0, 0], dtype=np.int32)
    unrank(r, out, 3, 3, 5, table)
    assert out.tolist() == board.tolist()
    assert next_side(out, 3, 3) and out[:3].tolist() == [9, 9, 9] and out[3:].sum() == 5


def test_the_index_is_a_bijection_onto_the_database():
    pits, max_seeds = 3, 6
    table, blocks = layout(pits, max_seeds)
    size = int(blocks[-1, 0])
    assert size == int(layer_sizes(2 * pits, max_seeds).sum()) == math.comb(max_seeds + 2 * pits, 2 * pits)
    seen = np.zeros(size, dtype=np.int64)
    for board in itertools.product(range(max_seeds + 1), repeat=2 * pits):
        n = sum(board)
        if n > max_seeds:
            continue
        i = index(np.array(board, dtype=np.int32), pits, table, blocks)
        assert blocks[n, 0] <= i < (blocks[n + 1, 0] if n < max_seeds else size)  # in its layer
        seen[i] += 1
    assert (seen == 1).all()


def test_layer_sizes_are_the_published_counts():
    # the issue: a 2x6 board with n seeds in the pits has C(n + 11, 11) boards; up to 20: 225,792,840
    sizes = layer_sizes(12, 20)
    assert sizes.tolist() == [math.comb(n + 11, 11) for n in range(21)]
    assert int(sizes.sum()) == 225_792_840


# -- 2. the databases against an independent exact search ------------------------------------------

@pytest.mark.parametrize("pits, seeds, max_seeds", BOARDS)
@pytest.mark.parametrize("rules", RULE_SETS, ids=RULE_IDS)
def test_the_database_agrees_with_the_solver(databases, rules, pits, seeds, max_seeds):
    game = make_game("kalah", pits=pits, seeds=seeds, **rules)
    db = databases(pits, max_seeds, **rules)
    solver = make_policy("solver", tt_bits=16)
    rng = np.random.default_rng([pits, max_seeds, rules["empty_capture"], rules["end_rule"] == "mover"])
    played = played_positions(game, max_seeds, POSITIONS, rng)
    boards = random_boards(game, max_seeds, POSITIONS, rng)
    assert len({s.tobytes() for s in played}) > POSITIONS // 4  # not a handful of repeats
    for kind, states in (("played", played), ("from_board", boards)):
        wrong = [(kind, game.board(s).tolist(), game.to_move(s), final_margin(game, db, s), solver.value(game, s))
                 for s in states if final_margin(game, db, s) != solver.value(game, s)]
        assert not wrong, f"{len(wrong)} of {len(states)} disagree, e.g. (board, to move, db, solver) {wrong[:3]}"
    # every layer is used: positions with few and with many seeds in play
    assert {game.seeds_in_play(s) for s in boards} == set(range(1, max_seeds + 1))


@pytest.mark.parametrize("rules", RULE_SETS, ids=RULE_IDS)
def test_every_board_of_a_small_database_agrees_with_the_solver(databases, rules):
    # exhaustive on 3 pits up to 8 seeds: every index unranked to a board, player_0 to move
    pits, max_seeds = 3, 8
    db = databases(pits, max_seeds, **rules)
    game = make_game("kalah", pits=pits, seeds=2, **rules)  # 12 seeds: room for any board of 8
    solver = make_policy("solver", tt_bits=16)
    checked = 0
    for n in range(1, max_seeds + 1):
        for mine in range(n + 1):
            theirs = n - mine
            for r_mine in range(int(db.table[pits, mine])):
                for r_theirs in range(int(db.table[pits, theirs])):
                    board = np.zeros(2 * pits, dtype=np.int32)
                    unrank(r_mine, board, 0, pits, mine, db.table)
                    unrank(r_theirs, board, pits, pits, theirs, db.table)
                    state = game.from_board(np.concatenate([board[:pits], [0], board[pits:], [0]]))
                    if game.state_fault(state) is not None:  # the mover has no seeds: not a position
                        continue
                    assert index(board, pits, db.table, db.blocks) == db.blocks[n, mine] + r_mine * db.table[pits, theirs] + r_theirs
                    assert db.value(state) == solver.value(game, state), board.tolist()
                    checked += 1
    assert checked > 2000


def test_the_database_value_is_the_same_from_either_side(databases):
    # the database is keyed on the board seen from the mover: a mirrored position has the same value
    game = make_game("kalah", pits=4, seeds=3)
    db = databases(4, 12, empty_capture=False, end_rule="either")
    rng = np.random.default_rng(7)
    for state in random_boards(game, 12, 300, rng):
        b = game.board(state)
        mirrored = game.from_board(np.concatenate([b[5:], b[:5]]), to_move=1 - game.to_move(state))
        assert db.value(mirrored) == db.value(state)


def test_the_database_refuses_what_it_does_not_hold(databases):
    game = make_game("kalah", pits=4, seeds=3)
    db = databases(4, 12, empty_capture=False, end_rule="either")
    with pytest.raises(ValueError, match="at most 12 seeds in play, this one has 24"):
        db.value(game.init())
    over = make_game("kalah", pits=1, seeds=1)
    state = over.apply(over.init(), 0)
    assert over.is_terminal(state)
    small = databases(1, 4, empty_capture=False, end_rule="either")
    assert not small.covers(state)
    with pytest.raises(ValueError, match="the game is over"):
        small.value(state)


# -- 7. every value lies in its layer's range ------------------------------------------------------

@pytest.mark.parametrize("rules", RULE_SETS, ids=RULE_IDS)
@pytest.mark.parametrize("pits, max_seeds", [(1, 10), (3, 8), (4, 12), (6, 10)])
def test_every_value_is_within_its_layer(databases, rules, pits, max_seeds):
    db = databases(pits, max_seeds, **rules)
    assert db.values.dtype == np.int8 and db.values.size == int(layer_sizes(2 * pits, max_seeds).sum())
    assert not (db.values == kalah_database.UNKNOWN).any()
    for n in range(max_seeds + 1):
        layer = db.values[db.blocks[n, 0]: db.blocks[n + 1, 0] if n < max_seeds else db.values.size]
        assert layer.size == math.comb(n + 2 * pits - 1, 2 * pits - 1)
        assert -n <= layer.min() and layer.max() <= n, (n, layer.min(), layer.max())
        # a margin to come has the parity of the seeds to come, every seed going to one store or the other
        assert ((layer.astype(np.int64) - n) % 2 == 0).all()
    assert db.values[0] == 0  # the empty board


def test_build_in_memory_matches_the_saved_database(databases):
    game = make_game("kalah", pits=4, seeds=3, empty_capture=True, end_rule="mover")
    values, seconds = build(game, 12)
    assert seconds >= 0
    assert np.array_equal(values, databases(4, 12, empty_capture=True, end_rule="mover").values)



def test_a_database_built_on_several_threads_is_the_one_built_on_one():
    """A layer's groups (by the larger side's count) are settled side by side: the values must not
    depend on how many threads settle them, nor the progress count on the order they finish."""
    game = make_game("kalah", pits=4, seeds=3)
    table, blocks = layout(game.pits, 11)
    counted = {}
    for workers in (1, 3):
        done = []
        values = kalah_database.build_all(game, 11, table, blocks, done.append, workers=workers)
        counted[workers] = (values, sum(done))
    assert np.array_equal(counted[1][0], counted[3][0]) and (counted[3][0] != kalah_database.UNKNOWN).all()
    assert counted[1][1] == counted[3][1] == counted[1][0].size


# -- 3. the perfect player ---------------------------------------------------------------------------

PERFECT_GAMES = [{"pits": 4, "seeds": 3}, {"pits": 5, "seeds": 2, "empty_capture": True},
                 {"pits": 4, "seeds": 3, "empty_capture": True, "end_rule": "mover"},
                 {"pits": 3, "seeds": 4, "end_rule": "mover"}]


@pytest.mark.parametrize("params", PERFECT_GAMES, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()))
def test_the_perfect_policy_agrees_with_the_solver_on_whole_games(params):
    game = make_game("kalah", **params)
    perfect = make_policy("perfect", db_seeds=6, tt_bits=16)  # most positions have more: the search runs
    solver = make_policy("solver", tt_bits=16)
    rng = np.random.default_rng([game.pits, game.seeds, *game.spec.tolist()])
    positions = []
    while len(positions) < 150:  # every position of random whole games, from the start
        state = game.init()
        while not game.is_terminal(state):
            positions.append(state.copy())
            game.apply(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
    assert sum(game.seeds_in_play(s) > 6 for s in positions) > 100
    for state in positions:
        exact = solver.value(game, state)
        assert perfect.value(game, state) == exact
        children = {int(pit): child_value(solver, game, state, int(pit))
                    for pit in np.flatnonzero(game.legal_mask(state))}
        assert perfect.move_values(game, state) == children
        assert max(children.values()) == exact
        optimal = sorted(pit for pit, v in children.items() if v == exact)
        assert perfect.best_moves(game, state) == (exact, optimal)
        assert perfect.act(game, state) == max(optimal)  # the optimal pit nearest the store
        assert perfect.last_value == exact
    assert perfect.solver(game).db.max_seeds == 6


def test_the_perfect_policy_agrees_with_the_solver_on_many_positions():
    # values only, on 2,000 positions of one rule set with more seeds than the database holds
    game = make_game("kalah", pits=4, seeds=3, empty_capture=True)
    perfect = make_policy("perfect", db_seeds=8, tt_bits=18)
    solver = make_policy("solver", tt_bits=16)
    rng = np.random.default_rng(40)
    states = random_boards(game, 24, 1000, rng) + played_positions(game, 24, 1000, rng)
    assert sum(game.seeds_in_play(s) > 8 for s in states) > 1000
    wrong = [(game.board(s).tolist(), game.to_move(s)) for s in states
             if perfect.value(game, s) != solver.value(game, s)]
    assert not wrong, wrong[:5]


def test_the_perfect_policy_plays_whole_games_against_itself_to_the_value():
    # perfect against perfect ends with the margin the start promised
    game = make_game("kalah", pits=4, seeds=3)
    perfect = make_policy("perfect", db_seeds=6, tt_bits=16)
    state = game.init()
    promised = perfect.value(game, state)
    while not game.is_terminal(state):
        game.apply(state, perfect.act(game, state))
    first, second = game.scores(state)
    assert first - second == promised == make_policy("solver").value(game, game.init())


def test_the_perfect_policy_refuses_a_finished_game_and_games_without_a_database():
    game = make_game("kalah", pits=1, seeds=1)
    state = game.apply(game.init(), 0)
    perfect = make_policy("perfect", db_seeds=2)
    for ask in (perfect.act, perfect.value, perfect.move_values, perfect.best_moves):
        with pytest.raises(ValueError, match="the game is over") as error:
            ask(game, state)
        assert "\n" not in str(error.value)
    for name, known_as in (("togyz_kumalak", "Togyz Kumalak"), ("sungka", "Sungka"), ("dakon", "Dakon")):
        other = make_game(name)
        with pytest.raises(ValueError, match=f"perfect: no endgame database or solver for {known_as} \\({name}\\); "
                                             f"perfect play covers Kalah and Oware") as error:
            perfect.act(other, other.init())
        assert "\n" not in str(error.value)


def test_the_perfect_policy_gives_up_past_its_time_limit_in_one_line():
    game = make_game("kalah", pits=6, seeds=6)
    perfect = make_policy("perfect", db_seeds=6, time_limit=0.01, tt_bits=16)
    with pytest.raises(NotSolved, match="not solved within time_limit=0.01 s") as error:
        perfect.value(game, game.init())
    assert "\n" not in str(error.value)


# -- 4. the published values -------------------------------------------------------------------------

# Irving, Donkers & Uiterwijk, "Solving Kalah", ICGA Journal 23(3), 2000 (empty_capture=True)
PUBLISHED = [(1, 2), (2, 10), (3, 2)]


@pytest.mark.parametrize("seeds, margin", PUBLISHED)
def test_published_values_of_kalah(seeds, margin):
    game = make_game("kalah", pits=6, seeds=seeds, empty_capture=True)
    perfect = make_policy("perfect", db_seeds=12)
    value, best = perfect.best_moves(game, game.init())
    assert value == margin
    assert best and all(perfect.move_values(game, game.init())[pit] == margin for pit in best)


@pytest.mark.slow
def test_published_value_of_kalah_6_4():
    game = make_game("kalah", pits=6, seeds=4, empty_capture=True)
    assert make_policy("perfect", db_seeds=14).value(game, game.init()) == 10


@pytest.mark.parametrize("seeds", [1, 2, pytest.param(3, marks=pytest.mark.slow)])
def test_our_rules_values_of_kalah_match_the_solver(seeds):
    game = make_game("kalah", pits=6, seeds=seeds)
    perfect = make_policy("perfect", db_seeds=12)
    assert perfect.value(game, game.init()) == make_policy("solver").value(game, game.init())


def test_our_rules_values_of_kalah():
    # our standard rules (empty_capture=False), beside the published ones: (6,1) +2, (6,2) +6, (6,3) +2
    perfect = make_policy("perfect", db_seeds=12)
    values = [perfect.value(game, game.init()) for game in (make_game("kalah", pits=6, seeds=s) for s in (1, 2, 3))]
    assert values == [2, 6, 2]


def test_a_search_stopped_by_its_deadline_gives_the_bounds_it_proved():
    # Kalah(6,3) with the empty-capture rule is +2 (Irving, Donkers & Uiterwijk). The clock is
    # read every 200,000 positions, which its search passes: with no time at all, the bounds
    # proved by then hold +2 without meeting; with enough, they meet there
    game = make_game("kalah", pits=6, seeds=3, empty_capture=True)
    low, high = make_policy("perfect", db_seeds=12).solver(game).bounds_to_come(game.init(), deadline=0.0)
    assert low <= 2 <= high and low < high
    with pytest.raises(TimeoutError):
        make_policy("perfect", db_seeds=12).solver(game).to_come(game.init(), deadline=0.0)
    assert make_policy("perfect", db_seeds=12).solver(game).bounds_to_come(game.init()) == (2, 2)


# -- 5. database files -------------------------------------------------------------------------------

GAME_RULES = {"pits": 4, "seeds": 3, "empty_capture": False, "end_rule": "either"}


def saved(folder, max_seeds=6, **changes):
    game = make_game("kalah", **dict(GAME_RULES, **changes))
    return game, database(game, max_seeds, folder=folder), file_path(game, max_seeds, folder)


def refused(game, max_seeds, folder, why):
    with pytest.raises(DatabaseFileError, match=why) as error:
        database(game, max_seeds, folder=folder)
    text = str(error.value)
    assert "\n" not in text
    assert f"mancala-marl solve {game.cli_spec()} --db-seeds {max_seeds} --rebuild" in text
    return text


def test_a_saved_database_loads_back_identical(tmp_path):
    game, built, path = saved(tmp_path)
    assert path.exists() and path.parent == tmp_path and path.suffix == ".mmdb"
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary file left
    loaded = database(game, 6, folder=tmp_path)
    assert np.array_equal(loaded.values, built.values) and loaded.values.dtype == np.int8
    assert isinstance(loaded, Database) and loaded.max_seeds == 6
    # the seeds a game starts with are not part of the rules: Kalah(4,5) reads Kalah(4,3)'s file
    assert file_path(make_game("kalah", pits=4, seeds=5), 6, tmp_path) == path
    # and a rebuild writes the same values again
    assert np.array_equal(database(game, 6, folder=tmp_path, rebuild=True).values, built.values)


def test_a_truncated_file_is_refused(tmp_path):
    game, _, path = saved(tmp_path)
    data = path.read_bytes()
    path.write_bytes(data[:-10])
    refused(game, 6, tmp_path, "a partial or damaged file")
    path.write_bytes(data + b"\0")  # too long
    refused(game, 6, tmp_path, "a partial or damaged file")
    path.write_bytes(data[:len(files.MAGIC) + 4])  # cut inside the header's length
    refused(game, 6, tmp_path, "header is cut off or corrupt")
    path.write_bytes(b"")
    refused(game, 6, tmp_path, "not an endgame database file")


def test_a_flipped_byte_in_the_values_is_refused(tmp_path):
    game, built, path = saved(tmp_path)
    data = bytearray(path.read_bytes())
    data[-1 - built.values.size // 2] ^= 0x01
    path.write_bytes(bytes(data))
    refused(game, 6, tmp_path, "do not match their checksum")


def test_a_corrupt_header_is_refused(tmp_path):
    game, _, path = saved(tmp_path)
    data = path.read_bytes()
    start = len(files.MAGIC) + 8
    length = int.from_bytes(data[len(files.MAGIC):start], "little")
    header = data[start:start + length]
    path.write_bytes(data[:start] + b"\xff" + header[1:] + data[start + length:])  # not UTF-8
    refused(game, 6, tmp_path, "header is corrupt")
    path.write_bytes(data[:start] + b"[" + header[1:] + data[start + length:])  # not JSON
    refused(game, 6, tmp_path, "header is corrupt")
    path.write_bytes(b"X" + data[1:])  # the magic
    refused(game, 6, tmp_path, "not an endgame database file")
    path.write_bytes(data[:len(files.MAGIC)] + (1 << 40).to_bytes(8, "little") + data[start:])
    refused(game, 6, tmp_path, "header is cut off or corrupt")
    other = json.loads(header)
    other["format"] = 99
    text = json.dumps(other, sort_keys=True).encode()
    path.write_bytes(data[:len(files.MAGIC)] + len(text).to_bytes(8, "little") + text + data[start + length:])
    refused(game, 6, tmp_path, "format 99")
    other = json.loads(header)
    other["entries"] = "many"
    text = json.dumps(other, sort_keys=True).encode()
    path.write_bytes(data[:len(files.MAGIC)] + len(text).to_bytes(8, "little") + text + data[start + length:])
    refused(game, 6, tmp_path, "a partial or damaged file")


@pytest.mark.parametrize("changes", [{"empty_capture": True}, {"end_rule": "mover"}, {"pits": 3}])
def test_a_file_built_for_other_rules_is_refused(tmp_path, changes):
    game, _, path = saved(tmp_path)
    other = make_game("kalah", **dict(GAME_RULES, **changes))
    target = file_path(other, 6, tmp_path)
    assert target != path
    shutil.copyfile(path, target)
    text = refused(other, 6, tmp_path, "it was built for rules=")
    assert str(target) in text


def test_a_file_of_another_size_is_refused(tmp_path):
    game, _, path = saved(tmp_path, max_seeds=6)
    shutil.copyfile(path, file_path(game, 8, tmp_path))
    refused(game, 8, tmp_path, "it was built for max_seeds=6, not 8")


def test_a_refused_file_is_never_replaced_but_a_rebuild_replaces_it(tmp_path):
    game, built, path = saved(tmp_path)
    path.write_bytes(path.read_bytes()[:-1])
    damaged = path.read_bytes()
    refused(game, 6, tmp_path, "partial")
    assert path.read_bytes() == damaged  # refused, left as it was
    assert np.array_equal(database(game, 6, folder=tmp_path, rebuild=True).values, built.values)
    assert np.array_equal(database(game, 6, folder=tmp_path).values, built.values)


def test_a_failed_save_leaves_no_file_and_no_partial_file(tmp_path, monkeypatch):
    game = make_game("kalah", **GAME_RULES)

    def fail(descriptor):
        raise OSError("disk full (simulated)")

    monkeypatch.setattr(atomic.os, "fsync", fail)
    with pytest.raises(OSError, match="simulated"):
        database(game, 6, folder=tmp_path)
    assert list(tmp_path.iterdir()) == []
    monkeypatch.undo()
    # over a good file, a failed save leaves the good file as it was
    _, built, path = saved(tmp_path)
    before = path.read_bytes()
    monkeypatch.setattr(atomic.os, "replace", lambda *a: (_ for _ in ()).throw(KeyboardInterrupt()))
    with pytest.raises(KeyboardInterrupt):
        database(game, 6, folder=tmp_path, rebuild=True)
    monkeypatch.undo()
    assert [p.name for p in tmp_path.iterdir()] == [path.name] and path.read_bytes() == before


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_file_permissions_follow_the_umask(tmp_path, umask):
    old = os.umask(umask)
    try:
        _, _, path = saved(tmp_path)
    finally:
        os.umask(old)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask


def test_the_cache_folder_is_the_setting(tmp_path, monkeypatch):
    monkeypatch.setenv("MANCALA_MARL_CACHE", str(tmp_path / "here"))
    game = make_game("kalah", pits=3, seeds=2)
    database(game, 4)
    assert [p.name for p in (tmp_path / "here").iterdir()] == [file_path(game, 4).name]


# -- 6. bad input --------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["togyz_kumalak", "sungka"])
def test_no_database_for_games_without_one(tmp_path, name):
    with pytest.raises(ValueError, match=f"no endgame database for {name}") as error:
        database(make_game(name), 4, folder=tmp_path)
    assert "\n" not in str(error.value)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("max_seeds", [-1, 128, True, False, 2.0, "4", None])
def test_database_sizes_out_of_range_are_refused(tmp_path, max_seeds):
    with pytest.raises(ValueError, match=f"^max_seeds must be .*, got {max_seeds!r}") as error:
        database(make_game("kalah", pits=3, seeds=2), max_seeds, folder=tmp_path)
    # the range, as the type's bounds ('an integer >= 0 and <= 127') or after the value ('it takes 0..127')
    assert "\n" not in str(error.value) and (">= 0 and <= 127" in str(error.value) or "0..127" in str(error.value))
    assert list(tmp_path.iterdir()) == []


def test_a_database_past_what_can_be_built_is_refused(tmp_path):
    with pytest.raises(ValueError, match="ask for fewer seeds"):
        database(make_game("kalah", pits=6, seeds=4), 127, folder=tmp_path)


def solve(capsys, *argv):
    """``mancala-marl solve ...``: (exit status, stdout, stderr); argparse's refusals exit (status 2)."""
    try:
        status = cli.main(["solve", *argv])
    except SystemExit as exit:
        status = exit.code
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("argv, why", [
    (["nonesuch"], "nonesuch"),
    (["togyz_kumalak"], "no endgame database or solver for Togyz Kumalak (togyz_kumalak)"),
    (["dakon:seeds=3"], "no endgame database or solver for Dakon (variant) (dakon:seeds=3); perfect play covers Kalah"),
    (["kalah:pits=4,seeds=3", "--moves", "4"], "4"),
    (["kalah:pits=4,seeds=3", "--moves", "0,0,0"], "0"),  # player_0's pit 0 is empty by then
    (["kalah:pits=1,seeds=1", "--moves", "0"], "the game is over after these moves"),
    (["kalah:pits=1,seeds=1", "--moves", "0,0"], "the game is over before move 2"),
    (["kalah:pits=4,seeds=3", "--moves", "2,x"], "--moves must be comma-separated pit numbers"),
    (["kalah:pits=4,seeds=3", "--moves", "-1"], ""),
    (["kalah:pits=6,seeds=6", "--db-seeds", "6", "--time-limit", "0.01"], "not solved within time_limit"),
    (["kalah:pits=4,seeds=3", "--db-seeds", "200"], ""),
])
def test_solve_refuses_bad_input_in_one_line(capsys, argv, why):
    status, out, err = solve(capsys, *argv)
    assert status == 2, (out, err)
    assert out == ""
    assert err.startswith("mancala-marl solve") and err.count("\n") == 1 and why in err, err
    assert "Traceback" not in err


def test_solve_refuses_an_oware_position_past_its_database_before_building_it(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("MANCALA_MARL_CACHE", str(tmp_path / "cache"))
    status, out, err = solve(capsys, "oware")
    assert status == 2 and out == "" and "covers positions with at most 12 seeds in play" in err
    assert "this one has 48" in err and not (tmp_path / "cache").exists()  # no database was built


def test_solve_json_is_player_0s_margin_and_the_optimal_moves(capsys):
    game = make_game("kalah", pits=4, seeds=3)
    solver = make_policy("solver")
    for moves in ("", "0", "1", "1,0"):
        state = game.init()
        for pit in filter(None, moves.split(",")):
            game.apply(state, int(pit))
        status, out, err = solve(capsys, "kalah:pits=4,seeds=3", "--db-seeds", "6", "--moves", moves, "--json")
        assert status == 0, err
        answer = json.loads(out)
        mover = game.to_move(state)
        exact = solver.value(game, state)
        assert answer["to_move"] == mover
        assert answer["value"] == (exact if mover == 0 else -exact)
        legal = np.flatnonzero(game.legal_mask(state))
        assert answer["best_moves"] == [int(p) for p in legal if child_value(solver, game, state, int(p)) == exact]
        assert isinstance(answer["seconds"], float) and answer["seconds"] >= 0
        # the database of 6 seeds on 8 pits: C(6 + 8, 8) boards; a position with more seeds is searched
        assert answer["db_seeds"] == 6 and answer["db_positions"] == 3003
        assert answer["positions_searched"] > 0 if game.seeds_in_play(state) > 6 else answer["positions_searched"] == 0
    # after "0" player_1 moves (3 seeds into pits 1-3): the value is still player_0's
    assert json.loads(solve(capsys, "kalah:pits=4,seeds=3", "--db-seeds", "6", "--moves", "0", "--json")[1])["to_move"] == 1


def test_solve_prints_the_value_and_the_moves(capsys):
    status, out, err = solve(capsys, "kalah:pits=6,seeds=2,empty_capture=true", "--db-seeds", "12")
    assert status == 0, err
    assert "value: +10 for player_0" in out and "optimal moves for player_0: 4" in out
    status, out, err = solve(capsys, "kalah:pits=3,seeds=2", "--db-seeds", "4", "--rebuild", "--json")
    assert status == 0, err
    small = make_game("kalah", pits=3, seeds=2)
    assert json.loads(out)["value"] == make_policy("solver").value(small, small.init())


def test_solve_shows_that_it_is_searching_on_a_terminal(capsys, monkeypatch):
    monkeypatch.setenv("TTY_COMPATIBLE", "1")  # rich draws as on a terminal
    status, out, err = solve(capsys, "kalah:pits=3,seeds=2", "--db-seeds", "4")
    assert status == 0 and "solving kalah:pits=3,seeds=2" in err and "solving" not in out
    monkeypatch.delenv("TTY_COMPATIBLE")
    status, out, err = solve(capsys, "kalah:pits=3,seeds=2", "--db-seeds", "4")
    assert status == 0 and err == ""  # to a file or a pipe: nothing but the result
