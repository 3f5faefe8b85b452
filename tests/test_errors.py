"""One error hierarchy: input errors (ValueError) apart from internal ones; the CLI tells them apart."""

from __future__ import annotations

import pytest
import typer.main

import shangrao
from shangrao.analysis import HandError
from shangrao.bots import UnknownBotError
from shangrao.cli import app
from shangrao.errors import InputError, InternalError, ShangraoError
from shangrao.game import ActionParseError, EngineError, IllegalActionError, ReplayError, WallError
from shangrao.melds import MeldError
from shangrao.records import RecordError, Store
from shangrao.rules import RuleSetError
from shangrao.scoring import SituationError
from shangrao.tiles import TileParseError

INPUT_ERRORS = [
    TileParseError,
    MeldError,
    SituationError,
    ActionParseError,
    IllegalActionError,
    WallError,
    ReplayError,
    RuleSetError,
    RecordError,
    UnknownBotError,
    HandError,
]


@pytest.mark.parametrize("cls", INPUT_ERRORS, ids=lambda c: c.__name__)
def test_input_errors_are_value_errors_under_one_base(cls):
    assert issubclass(cls, InputError) and issubclass(cls, ValueError) and issubclass(cls, ShangraoError)
    assert not issubclass(cls, InternalError)


def test_internal_errors_are_not_input_errors():
    assert issubclass(EngineError, InternalError) and issubclass(EngineError, RuntimeError)
    assert not issubclass(EngineError, ValueError)


def test_library_messages_do_not_name_cli_options():
    with pytest.raises(RecordError) as info:
        Store("  ")
    assert not str(info.value).startswith("--db")
    with pytest.raises(TileParseError):
        shangrao.analyze("12x")


def _main(args: list[str]) -> int:
    return typer.main.get_command(app).main(args, standalone_mode=False)


def test_cli_reports_bad_input_as_one_line_exit_2(capsys):
    assert _main(["analyze", "12x", "--bao", "9p"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and "12x" in err[0]


def test_cli_reports_a_bad_db_naming_the_option(capsys, tmp_path):
    junk = tmp_path / "junk.sqlite3"
    junk.write_text("not sqlite")
    assert _main(["games", "--db", str(junk)]) == 2
    assert capsys.readouterr().err.startswith("error: --db: ")


def test_cli_reports_an_unexpected_value_error_as_a_bug(capsys, monkeypatch):
    import shangrao.cli.analysis_cmds as cmds

    def broken(*args, **kwargs):
        raise ValueError("an internal slip")

    monkeypatch.setattr(cmds, "_analyze", broken)
    assert _main(["analyze", "123m456p789s12s55z", "--bao", "9p"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("internal error") and "bug" in err[0] and "file it" in err[0]
    assert "an internal slip" in err[0] and "Traceback" not in err[0]
