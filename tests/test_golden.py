"""The golden playthroughs (tests/golden/), replayed move for move through each variant's AEC env."""

import json

import pytest

from .golden import FOLDER, REGENERATE, cases, events, path_of, play, plays_a_part, rule_options

CASES = cases()


def first_difference(recorded: list[dict], replayed: list[dict]) -> str | None:
    for i, (want, got) in enumerate(zip(recorded, replayed)):
        for key in want:
            if want[key] != got[key]:
                return (f"move {i} ({want['agent']} plays {want['action']}): {key} is {got[key]}, "
                        f"the recording has {want[key]}")
    if len(replayed) != len(recorded):
        where = len(replayed)
        return (f"the replay stops after {where} moves, the recording goes on to {len(recorded)}"
                + (f" (move {where}, {recorded[where]['action']}, is not legal now)" if where < len(recorded) else ""))
    return None


@pytest.mark.parametrize("name, k, rules", CASES, ids=[f"{name}_{k}" for name, k, _ in CASES])
def test_the_recorded_game_replays_move_for_move(name, k, rules):
    path = path_of(name, k)
    assert path.is_file(), f"{path.name} is missing: a new game or rule set is recorded by `{REGENERATE}`"
    data = json.loads(path.read_text())
    assert data["rules"] == rules, (f"{path.name} records the rules {data['rules']}, but {name}'s examples[{k}] is "
                                    f"now {rules}: `{REGENERATE}` if the examples changed on purpose")
    recorded = data["moves"]
    replayed = list(play(name, rules, data["seed"], [move["action"] for move in recorded]))
    difference = first_difference(recorded, replayed)
    assert difference is None, (f"{path.name}: {difference}. If the rules changed on purpose, record the games "
                                f"again with `{REGENERATE}` and review the diff")
    assert events(name, rules, recorded) == set(data["events"]) and "end" in data["events"]


def test_every_golden_file_belongs_to_a_rule_set_and_all_are_small():
    files = sorted(FOLDER.glob("*.json"))
    assert {path.name for path in files} == {path_of(name, k).name for name, k, _ in CASES}, \
        f"golden files of rule sets that are gone: `{REGENERATE}` and delete the files it does not write"
    assert sum(path.stat().st_size for path in files) < 300_000


@pytest.mark.parametrize("name, k, rules", [case for case in CASES if rule_options(case[0], case[2])],
                         ids=[f"{name}_{k}" for name, k, rules in CASES if rule_options(name, rules)])
def test_each_rule_option_of_a_rule_set_plays_a_part_in_its_recorded_game(name, k, rules):
    # so that a change to that option's rule is caught: replayed with the option at its default
    # (Kalah's empty_capture=True played as False, say) the game differs somewhere
    # (or the rules refuse the set without it: Alemungula's outward sowing needs its chosen middle hole)
    data = json.loads(path_of(name, k).read_text())
    for option, other in rule_options(name, rules).items():
        assert plays_a_part(name, other, data["seed"], data["moves"]), option
