"""``mancala-marl demo`` starts afresh in --run-dir, but replaces only a folder an earlier demo
wrote (or an empty one): a folder given by mistake is refused and kept, and bad settings are
refused before the folder is touched."""

import pytest

from mancala_marl.cli import main
from mancala_marl.cli.demo import MARKER

TINY = ["kalah", "--timesteps", "256", "--games", "1"]  # a few seconds of training, one game per cell


@pytest.fixture
def someone_elses(tmp_path):
    folder = tmp_path / "thesis"
    folder.mkdir()
    (folder / "notes.txt").write_text("a year of work")
    return folder


def test_a_folder_the_demo_did_not_write_is_refused_and_kept(someone_elses, capsys):
    assert main(["demo", *TINY, "--run-dir", str(someone_elses)]) == 2
    err = capsys.readouterr().err
    assert f"--run-dir {someone_elses} is not empty and not marked as a demo's (no {MARKER})" in err
    assert len(err.strip().splitlines()) == 1
    assert (someone_elses / "notes.txt").read_text() == "a year of work"


def test_a_demo_folder_with_someone_elses_file_in_it_is_refused_and_kept(someone_elses, capsys):
    (someone_elses / MARKER).write_text("")
    assert main(["demo", *TINY, "--run-dir", str(someone_elses)]) == 2
    assert "it holds notes.txt, which a demo does not write" in capsys.readouterr().err
    assert (someone_elses / "notes.txt").is_file()


def test_bad_settings_are_refused_before_the_run_folder_is_touched(someone_elses, capsys):
    (someone_elses / "notes.txt").unlink()
    (someone_elses / MARKER).write_text("")  # an earlier demo's, which a good demo would replace
    for option, message in (("--timesteps", "argument --timesteps: must be an integer >= 1 and <= 100000000000, "
                                             "got '0'"),
                            ("--games", "argument --games: must be an integer >= 1 and <= 1000000")):
        with pytest.raises(SystemExit) as exit_:  # argparse exits by itself
            main(["demo", "kalah", option, "0", "--run-dir", str(someone_elses)])
        assert exit_.value.code == 2 and message in capsys.readouterr().err
    assert sorted(p.name for p in someone_elses.iterdir()) == [MARKER]


def test_an_earlier_demo_folder_is_replaced(tmp_path, capsys):
    run_dir = tmp_path / "demo"
    # What an earlier demo, stopped before its end, leaves: were it kept, training would refuse a
    # folder holding a checkpoint ("already holds a run").
    (run_dir / "checkpoints").mkdir(parents=True)
    (run_dir / "checkpoints" / "last.zip").write_text("an earlier demo's model")
    (run_dir / "evaluations.csv").write_text("an earlier demo's evaluations")
    (run_dir / MARKER).write_text("")
    assert main(["demo", *TINY, "--run-dir", str(run_dir)]) == 0
    assert "Model: " in capsys.readouterr().out
    assert (run_dir / "final.zip").is_file() and (run_dir / MARKER).is_file()
    assert (run_dir / "evaluations.csv").read_text().startswith("timesteps,")
    assert (run_dir / "checkpoints" / "last.zip").read_bytes()[:2] == b"PK"  # this demo's model
