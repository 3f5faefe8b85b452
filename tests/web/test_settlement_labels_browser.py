"""The table's settlement in Chromium (issue 38): the 宝 labels ("宝当三筒") of neighbouring acting 宝
never print over each other nor over a tile, at 360, 390 and 1280 px; and the English settlement names
patterns, doublings and clauses in English with the Chinese beside, with half-width colons.

The settlement is a real hand's (greedy bots, seed :data:`SEED`, hand :data:`HAND`: a 宝吊头 whose
reading has two acting 宝 side by side), rendered by the table page's own code over a live table's
state (its socket closed first, so nothing else arrives).  Screenshots: ``SHANGRAO_SHOTS=DIR``.
Skipped without Playwright or /usr/bin/chromium."""

from __future__ import annotations

import itertools
import json
import os
from pathlib import Path

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

from .serving import HAS_CHROMIUM, Watch, app_served, chromium  # noqa: E402
from .test_browser import create_table  # noqa: E402
from .test_pages_phone import NO_SIDEWAYS, OVERLAPS  # noqa: E402

pytestmark = pytest.mark.skipif(not HAS_CHROMIUM, reason="needs Debian's chromium at /usr/bin/chromium")

#: greedy×4, this seed's match, this hand (0-based): seat 0 wins 宝吊头 with 宝 acting as 二条 and
#: 三条 side by side (the ends of two neighbouring groups)
SEED, HAND = 37, 6

LABELS = "#settlement .reading .tile .as, #settlement .reading .tile .win-mark"
#: every label against every tile but its own: [label index, tile index] of each overlap
OVER_TILES = """() => { const out = []; const tiles = [...document.querySelectorAll("#settlement .reading .tile")];
  [...document.querySelectorAll("#settlement .reading .tile .as, #settlement .reading .tile .win-mark")].forEach((l, i) => {
    const a = l.getBoundingClientRect();
    tiles.forEach((t, j) => { if (t.contains(l)) return; const b = t.getBoundingClientRect();
      if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) out.push([i, j]); }); });
  return out; }"""
#: show a settlement over the table: the socket closed, the state's settlement and 倒牌 replaced
SHOW = """([reveal, settlement, bao]) => { ws.onclose = () => {}; ws.close();
  S.reveal = reveal; S.settlement = settlement; S.view.bao = bao; S.view.phase = "over"; S.legal = [];
  S.table.status = "playing"; render(); }"""


def _hand():
    from shangrao.records.summary import hand_summary
    from shangrao.web.views import reveal

    from .sample import greedy_hand

    g = greedy_hand(SEED, HAND)
    return reveal(g), hand_summary(g.result, g.events), g.bao


@pytest.fixture(scope="module")
def hand():
    r, summary, bao = _hand()
    flat = [wild for w in r["wins"] for grp in w["groups"] for wild in grp["wild"]]
    assert any(a and b for a, b in itertools.pairwise(flat)), "the hand has no two neighbouring acting 宝"
    return json.loads(json.dumps([r, summary, bao]))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("labels") / "labels.sqlite3"
    with app_served(f"sqlite:///{db}", bot_delay=0.2, turn_timeout=300, claim_timeout=60) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


def _show(page, server, hand, lang: str) -> None:
    page.goto(server + "/")
    page.evaluate(f"localStorage.setItem('shangrao-lang', '{lang}')")
    create_table(page, server, bot="greedy", hands=1)
    page.evaluate(SHOW, hand)
    page.wait_for_selector("#settlement .reading .tile .as")


def _shot(page, name: str) -> None:
    folder = os.environ.get("SHANGRAO_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.locator("#settlement .card-s").screenshot(path=str(Path(folder) / name))


@pytest.mark.parametrize("vw,vh", [(360, 740), (390, 844), (1280, 800)], ids=["360", "390", "desktop"])
def test_neighbouring_bao_labels_never_overlap_each_other_nor_a_tile(server, browser, hand, vw, vh):
    page = browser.new_page(viewport={"width": vw, "height": vh})
    w = Watch(page, aborted_ok=True)
    _show(page, server, hand, "zh")
    labels = page.locator("#settlement .reading .tile .as")
    assert labels.count() >= 2
    assert all(t.startswith("宝当") for t in labels.all_inner_texts())
    assert page.evaluate(OVERLAPS, LABELS) == [], "two 宝 labels print over each other"
    assert page.evaluate(OVER_TILES) == [], "a 宝 label prints over a tile"
    card = page.locator("#settlement .card-s").bounding_box()
    for i in range(labels.count()):
        b = labels.nth(i).bounding_box()
        assert b["x"] >= card["x"] and b["x"] + b["width"] <= card["x"] + card["width"], "a 宝 label sticks out"
    # the tightest case: three acting 宝 in one group, no gap between them
    page.evaluate("""() => { const g = S.reveal.wins[0].groups.find(x => x.tiles.length === 3);
        g.wild = [true, true, true]; S.reveal.wins[0].mark = null; render(); }""")
    assert page.evaluate(OVERLAPS, LABELS) == [], "three 宝 labels in one group print over each other"
    assert page.evaluate(OVER_TILES) == []
    assert page.evaluate(NO_SIDEWAYS)
    page.evaluate(SHOW, hand)  # back to the real hand for the picture
    _shot(page, f"settlement-bao-labels-{'phone' if vw < 1000 else 'desktop'}-{vw}.png")
    assert w.problems == []
    page.close()


def test_the_english_settlement_names_items_in_english_with_the_chinese_beside(server, browser, hand):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    w = Watch(page, aborted_ok=True)
    _show(page, server, hand, "en")
    text = page.locator("#settlement").inner_text()
    assert "Winner: " in text and "：" not in text and "，" not in text
    assert "Baodiao (宝 pair wait) (宝吊头) ×3" in text
    assert "(scoring item (3): 计分方法 (3))" in text
    # 清 is no 宝 acting, never one suit; and a payer's 飞宝 that did not count is said, as the CLI says it
    words = page.evaluate("""() => [itemName("patterns", "qing_qidui"), itemName("patterns", "qing_pengpenghu"),
        ...flownWords({ payers: [1, 2, 3], payer_factors: [1, 1, 1], payers_flown: [0, 2, 0], flown_not_counted: "never_held" }, who)]""")
    assert words == [
        "Seven pairs, no 宝 acting (清七对)",
        "All pungs, no 宝 acting (清碰碰糊)",
        f"{page.evaluate('who(2)')} discarded 2 宝 (飞宝), but the winner never held a 宝 this hand: "
        "not doubled (注 1)",
    ]
    _shot(page, "settlement-english-phone.png")
    page.set_viewport_size({"width": 1280, "height": 800})
    _shot(page, "settlement-english-desktop.png")
    assert w.problems == []
    page.close()


def test_a_note_beside_the_win_button_says_the_win_may_be_declined(server, browser):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    w = Watch(page, aborted_ok=True)
    page.goto(server + "/")
    page.evaluate("localStorage.setItem('shangrao-lang', 'zh')")
    create_table(page, server, bot="greedy", hands=1)
    page.evaluate("""() => { ws.onclose = () => {}; ws.close(); S.view.phase = "act";
        S.legal = [{ type: "win", action: "win", tile: null }, { type: "pass", action: "pass", tile: null, declines_win: true }];
        render(); }""")
    note = page.locator("#touji-note").inner_text()
    assert note.startswith("偷机") and "过（偷机）" in note
    page.evaluate("() => { S.legal = [{ type: 'win', action: 'win', tile: null }]; render(); }")
    assert page.locator("#touji-note").count() == 0  # no way to decline: no note
    assert w.problems == []
    page.close()
