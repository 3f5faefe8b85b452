"""The compiled core's state is declared once (sim/schema.py) and its codes come from their Python homes (issue 39)."""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import numpy as np
import pytest

from shangrao.bots import greedy
from shangrao.game.actions import ActionType
from shangrao.game.protocol import EventType
from shangrao.melds import MeldType
from shangrao.scoring import WinBy
from shangrao.scoring.items import BONUS_NAMES, PATTERNS
from shangrao.sim import core as C
from shangrao.sim import kernels as K
from shangrao.sim import schema as S

ROOT = Path(__file__).resolve().parents[2]
SIM = ROOT / "src" / "shangrao" / "sim"


def test_offsets_are_the_declared_fields_laid_end_to_end():
    o = 0
    for f in S.FIELDS:
        assert getattr(S.OFS, f.name) == o, f.name
        o += f.size
    assert o == S.STATE_SIZE
    assert len({f.name for f in S.FIELDS}) == len(S.FIELDS)


def test_every_core_offset_is_a_schema_field():
    fields = {getattr(S.OFS, f.name) for f in S.FIELDS}
    offsets = {n: v for n, v in vars(C).items() if n.startswith("_O_")}
    assert len(offsets) > 60
    assert all(v in fields for v in offsets.values()), offsets
    assert C.STATE_SIZE == S.STATE_SIZE and C.ST_DTYPE is S.ST_DTYPE
    # and core.py assigns every one from the schema's OFS, none as a number
    src = (SIM / "core.py").read_text(encoding="utf-8")
    assert not re.search(r"^_O_\w+ = \d", src, re.M)


def test_python_modules_read_the_state_through_the_named_view_not_raw_offsets():
    for name in ("play.py", "vector.py", "events.py"):
        src = (SIM / name).read_text(encoding="utf-8")
        assert "_O_" not in src, name


def test_hand_view_reads_and_writes_named_fields():
    st = np.zeros(S.STATE_SIZE, dtype=S.ST_DTYPE)
    v = S.HandView(st)
    v.cur = 2
    v.scores = [1, -2, 3, -4]
    v.counts[1, 5] = 3
    assert st[S.OFS.cur] == 2 and v.cur == 2 and isinstance(v.cur, int)
    assert list(st[S.OFS.scores : S.OFS.scores + 4]) == [1, -2, 3, -4]
    assert st[S.OFS.counts + 34 + 5] == 3
    assert v.melds.shape == (4, 4, S.MELD_W) and v.win_out.shape == (3, K.N_OUT)


def test_hand_view_names_the_fields_for_an_unknown_one_and_refuses_another_shape():
    v = S.HandView(np.zeros(S.STATE_SIZE, dtype=S.ST_DTYPE))
    with pytest.raises(AttributeError, match=r"no field 'score'.*scores"):
        _ = v.score
    with pytest.raises(AttributeError, match="no field"):
        v.score = 1
    with pytest.raises(ValueError, match=f"int64\\[{S.STATE_SIZE}\\]"):
        S.HandView(np.zeros(10, dtype=np.int64))


def test_architecture_doc_shows_the_declared_schema():
    doc = (ROOT / "docs" / "dev" / "architecture.md").read_text(encoding="utf-8")
    m = re.search(r"<!-- schema:begin -->\n(.*?)\n<!-- schema:end -->", doc, re.S)
    assert m, "docs/dev/architecture.md lacks the schema table markers"
    assert m.group(1).strip() == S.schema_table().strip(), (
        "regenerate it: python -c 'from shangrao.sim.schema import schema_table; print(schema_table())'"
    )


def test_core_codes_are_the_python_enums_declaration_order():
    def order(enum, *members):
        return [list(enum).index(m) for m in members]

    core_actions = [C.T_DISCARD, C.T_CHOW, C.T_PUNG, C.T_KONG, C.T_ADDED, C.T_CONCEALED, C.T_WIN, C.T_PASS, C.T_CATCH]
    assert core_actions == order(
        ActionType,
        ActionType.DISCARD,
        ActionType.CHOW,
        ActionType.PUNG,
        ActionType.KONG,
        ActionType.ADDED_KONG,
        ActionType.CONCEALED_KONG,
        ActionType.WIN,
        ActionType.PASS,
        ActionType.CATCH_BAO,
    )
    core_events = [C.E_DEAL, C.E_TRANSFER, C.E_END]
    assert core_events == order(EventType, EventType.DEAL, EventType.TRANSFER, EventType.END)
    core_melds = [K.MELD_CHOW, K.MELD_PUNG, K.MELD_KONG, K.MELD_CONCEALED_KONG]
    assert core_melds == order(MeldType, MeldType.CHOW, MeldType.PUNG, MeldType.KONG, MeldType.CONCEALED_KONG)
    core_win_by = [K.WIN_SELF_DRAW, K.WIN_ROBBING_KONG, K.WIN_DEALER_FIRST_DISCARD]
    assert core_win_by == order(WinBy, WinBy.SELF_DRAW, WinBy.ROBBING_KONG, WinBy.DEALER_FIRST_DISCARD)
    reasons = set(C.TRANSFER_REASONS)
    assert reasons == {*BONUS_NAMES, "win"}


def test_pattern_ids_and_factors_are_the_scoring_table():
    ids, factors = K.PATTERN_IDS, list(K._FACTORS)
    assert ids == tuple(PATTERNS)
    assert factors == [p.factor for p in PATTERNS.values()]
    assert ids[K.P_QING_QIXING_JIUYAO] == "qing_qixing_jiuyao" and ids[K.P_BAODIAO] == "baodiao"


def test_greedy_helpers_are_compiled_from_the_bots_one_source():
    assert C._connectivity.py_func is greedy._connectivity
    params = inspect.signature(greedy.GreedyBot.__init__).parameters
    touji_min_wall, survival = C.GREEDY_TOUJI_MIN_WALL, C.GREEDY_SURVIVAL
    assert touji_min_wall == params["touji_min_wall"].default
    assert survival == params["survival"].default


def _imports(path: Path) -> set[str]:
    mods = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            mods.add(node.module or "")
    return mods


def test_sim_vector_does_not_import_play_so_the_cycle_is_gone():
    assert "play" not in _imports(SIM / "vector.py")
    assert "vector" in _imports(SIM / "play.py")


def test_the_cache_stamp_covers_the_python_homes_the_core_compiles_from(tmp_path):
    from shangrao.sim import _cache

    homes = {p.relative_to(Path(_cache.__file__).resolve().parent.parent).as_posix() for p in _cache.HOMES}
    assert {
        "bots/greedy.py",
        "game/actions.py",
        "game/protocol.py",
        "melds.py",
        "scoring/items.py",
        "scoring/situation.py",
        "rules.py",
    } <= homes
    assert all(p.exists() for p in _cache.HOMES)
    (tmp_path / "a.py").write_text("x = 1\n")
    assert _cache.sources_stamp(tmp_path) != _cache.sources_stamp()  # another directory: its files only
