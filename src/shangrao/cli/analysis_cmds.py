"""``shangrao analyze`` and ``shangrao score``: the calculator side of the command line."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Annotated, Any

import typer

from .. import analyze as analyze_hand
from ..analysis import Analysis
from ..melds import parse_meld
from ..rules import _printable as printable
from ..scoring import ScoreResult, WinSituation
from ..scoring import score as score_situation
from ..tiles import TileParseError, bao_from_indicator, parse_tile, parse_tiles
from .common import (
    EXIT_BAD_INPUT,
    CliError,
    dump_json,
    err_console,
    iter_json_lines,
    out_console,
    parse_json,
    read_text,
)
from .render import render_analysis, render_score

__all__ = ["analysis_jsonl_record", "analyze_cmd", "parse_bao", "register", "score_cmd"]

_NONE_WORDS = {"none", "null", "no", "-"}


def parse_bao(text: str | None, what: str = "--bao") -> int | None:
    """A 宝 option value: one tile in any notation, or ``none``.

    An empty value is an error (``--bao "$BAO"`` with BAO unset must not mean "no 宝").
    """
    if text is None or text.strip().lower() in _NONE_WORDS:
        return None
    if not text.strip():
        raise CliError(f"{what}: empty; give one tile like 5p, or 'none' for no 宝")
    try:
        return parse_tile(text)
    except TileParseError as err:
        raise CliError(f"{what}: {err}") from None


def _kinds_field(value: Any, what: str) -> list[int]:
    """A list of tiles in a JSON line: a tile string or a list of kinds 0..33."""
    if isinstance(value, str):
        try:
            return parse_tiles(value)
        except TileParseError as err:
            raise CliError(f"{what}: {err}") from None
    if isinstance(value, list) and all(isinstance(k, int) and not isinstance(k, bool) for k in value):
        if any(not 0 <= k < 34 for k in value):
            raise CliError(f"{what}: tile kinds must be 0..33")
        return value
    raise CliError(f"{what}: must be a tile string like '123m456p' or a list of kinds 0..33")


def _analyze(
    hand: Any,
    melds: list[Any],
    bao: int | None,
    where: str,
    *,
    indicator: int | None = None,
    seen: Any = None,
    tiles_34: Any = None,
) -> Analysis:
    """One analysis from CLI/JSON values.  ``hand`` is a tile string or a list of kinds 0..33
    (one entry per tile); a count vector only as ``tiles_34`` (34 counts)."""
    counts = None
    if tiles_34 is not None:
        if hand is not None:
            raise CliError(f"{where}give hand or tiles_34, not both")
        if not (
            isinstance(tiles_34, list)
            and len(tiles_34) == 34
            and all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 4 for c in tiles_34)
        ):
            raise CliError(f"{where}tiles_34: must be a list of 34 counts 0..4 (kinds 0-33 in order)")
        counts = tiles_34
        kinds = None
    else:
        kinds = _kinds_field(hand, f"{where}hand")
    seen_kinds = [] if seen is None else _kinds_field(seen, f"{where}seen")
    parsed = []
    for i, m in enumerate(melds):
        if not isinstance(m, str):
            raise CliError(f"{where}melds[{i}]: must be a string KIND:TILES like 'pung:555p'")
        try:
            parsed.append(parse_meld(m))
        except ValueError as err:
            raise CliError(f"{where}meld {i + 1}: {err}") from None
    try:
        return analyze_hand(kinds, bao, parsed, indicator=indicator, seen=seen_kinds, tiles_34=counts)
    except ValueError as err:
        raise CliError(f"{where}{err}") from None


def analysis_jsonl_record(a: Analysis) -> dict[str, Any]:
    """The per-line output of ``analyze --jsonl``."""
    d = a.to_dict()
    return {"winning": d["winning"], "forms": d["forms"], "waits": d["waits"], "shanten": d["shanten"]}


_ANALYZE_FIELDS = {"hand", "tiles_34", "melds", "bao", "indicator", "seen"}


def _analyze_line(obj: Any) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise CliError(f'each line must be a JSON object like {{"hand": "...", "bao": "5p"}}, got {type(obj).__name__}')
    unknown = sorted(str(k) for k in set(obj) - _ANALYZE_FIELDS)
    if unknown:
        raise CliError(
            f"unknown field(s): {', '.join(printable(x) for x in unknown)}; known: {', '.join(sorted(_ANALYZE_FIELDS))}"
        )
    if "hand" not in obj and "tiles_34" not in obj:
        raise CliError("hand: missing")
    melds = obj.get("melds", [])
    if not isinstance(melds, list):
        raise CliError('melds: must be a list like ["pung:555p"]')
    if obj.get("bao") is not None and obj.get("indicator") is not None:
        raise CliError("give bao or indicator, not both")
    bao = obj.get("bao")
    if isinstance(bao, int) and not isinstance(bao, bool) and 0 <= bao < 34:
        pass
    elif bao is None or isinstance(bao, str):
        bao = parse_bao(bao, "bao")
    else:
        raise CliError(f"bao: must be one tile like '5p' or null, got {bao!r}")
    ind = obj.get("indicator")
    k = None
    if ind is not None:
        if not isinstance(ind, str):
            raise CliError("indicator: must be one tile like '4p'")
        k = parse_bao(ind, "indicator")
        bao = None if k is None else bao_from_indicator(k)
    return analysis_jsonl_record(
        _analyze(obj.get("hand"), melds, bao, "", indicator=k, seen=obj.get("seen"), tiles_34=obj.get("tiles_34"))
    )


def _run_jsonl(source: str | None, handle: Callable[[Any], dict[str, Any]]) -> int:
    """Shared JSON-lines loop: one output line per non-blank input line; errors as objects."""
    errors = 0
    count = 0
    out = sys.stdout
    for n, value in iter_json_lines(source):
        count += 1
        if isinstance(value, Exception):
            rec = {"error": str(value), "line": n}
        else:
            try:
                rec = handle(value)
            except ValueError as err:
                rec = {"error": " ".join(str(err).split()), "line": n}
        if "error" in rec:
            errors += 1
        out.write(dump_json(rec, indent=None) + "\n")
        out.flush()
    if errors:
        err_console().print(f"error: {errors} of {count} line(s) had errors (see the error objects)", markup=False)
        return EXIT_BAD_INPUT
    return 0


def analyze_cmd(
    hand: Annotated[
        str | None,
        typer.Argument(
            metavar="HAND",
            help="Concealed hand: 13 or 14 tiles minus 3 per meld, e.g. 123m456p789s1122z (also 一万二万, 东 or 🀇). "
            "With --jsonl: the input file (default stdin).",
        ),
    ] = None,
    meld: Annotated[
        list[str] | None,
        typer.Option(
            "--meld",
            "-m",
            metavar="KIND:TILES",
            help="A declared meld, repeatable: chow:123m, pung:555p, kong:7777s (exposed), concealed_kong:1111z.",
        ),
    ] = None,
    bao: Annotated[
        str | None,
        typer.Option(
            "--bao", "-b", metavar="TILE", help="The 宝 (wildcard) tile, e.g. 5p; 'none' for a hand without 宝."
        ),
    ] = None,
    indicator: Annotated[
        str | None,
        typer.Option(
            "--indicator", metavar="TILE", help="Give the flipped indicator tile instead of --bao (宝 = the next tile)."
        ),
    ] = None,
    seen: Annotated[
        str | None,
        typer.Option(
            "--seen",
            metavar="TILES",
            help="Other tiles in sight (ponds, other players' melds), e.g. 5m5m1z: waits and shanten leave them out.",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print shangrao.analyze(...).to_dict() as JSON.")] = False,
    jsonl: Annotated[
        bool,
        typer.Option(
            "--jsonl",
            help='Batch: read lines {"hand": ..., "melds": [...], "bao": ...} from HAND (a file) or stdin; write '
            '{"winning", "forms", "waits", "shanten"} per line. A bad line gives {"error": ..., "line": N} and the '
            "batch goes on. Exit 0 if every line was analysed, 2 if any line had an error.",
        ),
    ] = False,
) -> None:
    """Analyse a hand: readings, waits and shanten.

    A complete hand lists every winning reading and what each 宝 stands for in it.

    Example: shangrao analyze 123m456p789s12s55z --bao 9p
    """
    if jsonl:
        if meld or bao is not None or indicator is not None or as_json:
            raise CliError(
                "--jsonl takes melds and bao from each line; do not combine it with --meld, --bao, --indicator or --json"
            )
        if seen is not None:
            raise CliError("--jsonl takes 'seen' from each line; do not combine it with --seen")
        raise typer.Exit(_run_jsonl(hand, _analyze_line))
    if hand is None:
        raise CliError("missing HAND, e.g. shangrao analyze 123m456p789s12s55z --bao 9p")
    if bao is not None and indicator is not None:
        raise CliError("give --bao or --indicator, not both")
    ind_kind = None
    if indicator is not None:
        ind_kind = parse_bao(indicator, "--indicator")
        bao_kind = None if ind_kind is None else bao_from_indicator(ind_kind)
    elif bao is not None:
        bao_kind = parse_bao(bao)
    else:
        raise CliError("missing --bao TILE (the 宝), e.g. --bao 5p; use --bao none for a hand without 宝")
    result = _analyze(hand, list(meld or []), bao_kind, "", indicator=ind_kind, seen=seen)
    if as_json:
        sys.stdout.write(dump_json(result.to_dict()) + "\n")
    else:
        out_console().print(render_analysis(result, indicator=ind_kind))


def _situation(obj: Any, where: str = "") -> WinSituation:
    try:
        return WinSituation.from_dict(obj)
    except ValueError as err:
        raise CliError(f"{where}{err}") from None


def _score_line(obj: Any) -> dict[str, Any]:
    return score_situation(_situation(obj)).to_dict()


def score_cmd(
    file: Annotated[
        str | None, typer.Argument(metavar="[FILE|-]", help="JSON situation file; '-' or nothing reads stdin.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON (ScoreResult.to_dict()).")] = False,
    jsonl: Annotated[
        bool,
        typer.Option(
            "--jsonl",
            help="Batch: one JSON situation per line, one JSON result per line. A bad line gives "
            '{"error": ..., "line": N} and the batch goes on. Exit 0 if every line was scored, 2 if any line had an error.',
        ),
    ] = False,
) -> None:
    """Score one win from a JSON situation.

    Main fields: 'hand' (the tiles before the winning tile), 'win_tile', 'melds' (like ["pung:555p"]), 'bao'.

    'win_by': self_draw (the default), robbing_kong or dealer_first_discard.

    Optional: 'heavenly', 'kong_chain', 'winner_flown', 'winner_held_bao', 'four_bao', 'caught_bao'.

    Payers: 'payers_flown' (each payer's 飞宝 count, in seat order after the winner); 'robbed' (0-2).

    Example: echo '{"hand": "123m456p789s123s5z", "win_tile": "5z", "bao": "9p"}' | shangrao score
    """
    if jsonl:
        if as_json:
            raise CliError("--jsonl already writes JSON; do not combine it with --json")
        raise typer.Exit(_run_jsonl(file, _score_line))
    text, name = read_text(file)
    if not text.strip():
        raise CliError(f"{name}: empty input, expected one JSON situation")
    obj = parse_json(text, name)
    situation = _situation(obj, f"{name}: " if name != "<stdin>" else "")
    result: ScoreResult = score_situation(situation)
    if as_json:
        sys.stdout.write(dump_json(result.to_dict()) + "\n")
    else:
        out_console().print(render_score(result, situation))


def register(app: typer.Typer) -> None:
    app.command("analyze")(analyze_cmd)
    app.command("score")(score_cmd)
