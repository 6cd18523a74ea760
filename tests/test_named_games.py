"""The traditional games by name: each is what its MancalaGames file describes (where the oracle
folder is there), each passes PettingZoo's own tests, and the command line's names round-trip."""

import functools
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from mancala_marl import ENV_MODULES
from mancala_marl.errors import BadInput
from mancala_marl.games import GAMES, NAMED, NAMED_GAMES, Family, load_mancalagames, make_game, parse_game

ORACLE = Path(__file__).resolve().parents[1].parent / "shared" / "oracles" / "mancalagames" / "GameProps"
# Each family preset and the MancalaGames file it was read from
FILES = {"gelech": "Gelech", "huroy": "Huroy", "urim": "Urim", "adi": "Adi", "anywoli": "Anywoli", "nsa_isong": "Nsa_Isong", "obridjie": "Obridjie",
         "pallanguli": "Pallanguli", "pandi": "Pandi", "tegre": "Tegre", "adji_kui_i": "Adji_Kui_I", "al_manqala": "Al-manqala", "ayoayo": "Ayoayo", "bakuk": "Bakuk",
         "bohnenspiel": "Bohnenspiel", "bosh": "Bosh", "dabuda": "Dabuda", "dakon": "Dakon",
         "djenon_abe": "Djenon_Abe", "djenon_aboure": "Djenon_Aboure", "endodoi": "Endodoi", "erherhe": "Erherhe",
         "halusa": "Halusa", "hufesay": "Hufesay", "longbeu_a_cha": "Longbeu-a-cha", "mandoli": "Mandoli",
         "mangala_ii": "Mangala_II", "modiar": "Modiar", "ndoto": "Ndoto", "ohvalhu": "Ohvulhu",
         "ot_tjin": "Ot-tjin", "sadeqa_iii": "Sadeqa_III", "songo": "Songo", "tihbat": "Tihbat",
         "vai_lun_thlan": "Vai_Lun_Thlan", "voleur": "Voleur", "wari": "Wari", "alemungula": "Alemungula",
         "cow": "Cow", "goat": "Goat", "olinda": "Olinda", "kale": "Kale", "olowuka": "Olowuka",
         "mangala_iii": "Mangala_III", "leb_bbut_ahbochen": "Leb_Bbut_Ahbochen",
         "achochodi": "Achochodi", "andot": "Andot", "bay_khom": "Bay_Khom", "boola": "Boola",
         "bule_perga": "Bule_Perga", "gamacha": "Gamacha", "kara": "Kara", "krur": "Krur",
         "leyla_gobale": "Leyla-Gobale", "mangala_iv": "Mangala_IV", "mbangbi": "Mbangbi", "meusueb": "Meusueb",
         "ouri": "Ouri", "qelat": "Qelat", "qelat_ii": "Qelat_II", "sadeqa_iv": "Sadeqa_IV", "sokusowo": "Sokusowo",
         "toguz_xorgol": "Toguz_Xorgol", "waurie": "Waurie"}
FAMILY = [game.name for game in NAMED_GAMES if game.game == "family"]


def test_there_are_sixty_traditional_games_each_with_region_source_and_a_line():
    assert len(NAMED) >= 60 and len(NAMED) == len(NAMED_GAMES)
    for game in NAMED_GAMES:
        assert game.game in GAMES and game.region and game.source and game.about.endswith(".")
        assert game.name.isidentifier() and game.name == game.name.lower()
    assert sorted(FILES) == sorted(FAMILY)


@pytest.mark.skipif(not ORACLE.is_dir(), reason="the MancalaGames snapshot (../shared/oracles) is not beside the repo")
@pytest.mark.parametrize("name", FAMILY)
def test_each_family_preset_is_the_game_its_file_describes(name):
    assert make_game(name).params == load_mancalagames(ORACLE / f"{FILES[name]}.txt").params


@functools.cache
def env_factory(name):
    preset = NAMED[name]
    module = ENV_MODULES[preset.game]
    return (functools.partial(module.env, **preset.params), functools.partial(module.raw_env, **preset.params))


@pytest.mark.parametrize("name", FAMILY)
def test_each_named_game_passes_pettingzoo_api_seed_and_render_tests(name):
    env, raw_env = env_factory(name)
    api_test(env(), num_cycles=200)
    seed_test(env, num_cycles=200)
    render_test(raw_env)


@pytest.mark.parametrize("name", list(NAMED))
def test_a_named_game_is_made_by_name_and_by_its_command_line_spec(name):
    game = make_game(name)
    assert game.preset is NAMED[name] and game.cli_spec() == name
    seeds = 3 if game.seeds != 3 else 2
    variant = parse_game(f"{name}:{game.seed_word}={seeds}")
    assert variant.seeds == seeds and variant.cli_spec() == f"{name}:{game.seed_word}={seeds}"
    assert parse_game(variant.cli_spec()).params == variant.params
    state = game.init()
    rng = np.random.default_rng(0)
    for _ in range(50):  # it plays
        if game.is_terminal(state):
            break
        game.apply(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))


def test_a_named_game_refuses_what_its_game_refuses():
    with pytest.raises(BadInput, match="min_seeds"):
        make_game("adji_kui_i", seeds=1)  # a hole needs two seeds to move
    with pytest.raises(BadInput, match="named games: .*wari"):
        make_game("warri")


def test_the_family_preset_differs_from_the_family_defaults_where_it_says():
    # Wari is the family's defaults; every other preset changes something
    assert make_game("wari").params == Family().params
    assert all(make_game(name).params != Family().params for name in FAMILY if name != "wari")
