"""Table manners in Chromium with no CJK font (issue 24) at 390×844 and 1280×800: the 托管 button and
its badge (taken back with one tap), a quick phrase's bubble, the spectator view (no playable tile,
the bottom seat's hand face down, the 托管 badge seen too) and 解散 by the single seated player —
no horizontal scroll, no overlap of the table's parts (element boxes checked), zero console errors.
Skipped without Playwright or /usr/bin/chromium (.ci/run installs it)."""

from __future__ import annotations

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

from .serving import HAS_CHROMIUM, Watch, app_served, chromium  # noqa: E402
from .test_browser import create_table, inside  # noqa: E402
from .test_pages_phone import NO_SIDEWAYS, OVERLAPS  # noqa: E402

pytestmark = pytest.mark.skipif(not HAS_CHROMIUM, reason="needs Debian's chromium at /usr/bin/chromium")

SIZES = [(390, 844), (1280, 800)]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("manners") / "manners.sqlite3"
    # bots a little slow: a hand lasts long enough to hand the seat over and take it back
    with app_served(
        f"sqlite:///{db}",
        bot_delay=0.25,
        claim_timeout=60,
        turn_timeout=120,
        absent_timeout=120,
        next_hand_timeout=600,
        standin_bot="random",
        claim_pause=0.02,
        phrase_interval=0.5,
    ) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


#: the table's parts that must never overlap: the three opponents, the square of ponds, your side
PARTS = ".board > .opp, .board > .square, section.me"


def _layout_ok(page, vw, vh, what: str) -> None:
    assert page.evaluate(NO_SIDEWAYS), f"{what}: the page scrolls sideways"
    assert page.evaluate(OVERLAPS, PARTS) == [], f"{what}: the table's parts overlap"
    assert page.evaluate(OVERLAPS, "section.me .chip > *") == [], f"{what}: the seat chip's parts overlap"
    for sel in (".badge.managed", "#spectator", "#manage", "#dissolve", "#phrases-btn"):
        for i in range(page.locator(sel).count()):
            box = page.locator(sel).nth(i).bounding_box()
            assert box is None or (box["x"] >= -0.5 and box["x"] + box["width"] <= vw + 0.5), f"{what}: {sel} cut off"


@pytest.mark.parametrize("vw,vh", SIZES, ids=["phone", "desktop"])
def test_tuoguan_badge_phrase_spectator_and_dissolve_in_the_browser(server, browser, vw, vh):
    page = browser.new_page(viewport={"width": vw, "height": vh})
    w = Watch(page)
    create_table(page, server, bot="greedy", hands=2)
    table_id = page.url.split("/t/")[1].split("/")[0]
    page.wait_for_selector("#manage")
    assert inside(page.locator("#manage").bounding_box(), vw, vh)
    _layout_ok(page, vw, vh, "the table")
    # 托管: one tap; the badge is on your seat
    page.click("#manage")
    page.wait_for_selector("section.me .badge.managed[data-managed='0']")
    assert page.locator("#manage").inner_text() == "取消托管"
    _layout_ok(page, vw, vh, "the table with a 托管 badge")
    # the spectator sees the badge too, and nothing concealed
    spec = browser.new_page(viewport={"width": vw, "height": vh})
    ws = Watch(spec)
    assert page.locator("#watch-link").get_attribute("href") == f"/watch/{table_id}"  # the link to share
    spec.goto(f"{server}/watch/{table_id}")
    spec.wait_for_selector("#spectator")
    spec.wait_for_selector(".badge.managed[data-managed='0']")
    assert spec.locator("#hand .tile, .playable, #actions, #manage, #dissolve").count() == 0
    assert spec.locator("section.me .hidden-hand.mine .tile.back").count() >= 1  # face down (melds aside)
    _layout_ok(spec, vw, vh, "the spectator view")
    # whose turn it is, by name: a spectator is never told 轮到你 (it was, for seat 0's turns)
    for _ in range(20):
        assert spec.locator("#turn").inner_text() != "轮到你"
        spec.wait_for_timeout(100)
    # take it back: one tap; the badge goes for everyone
    page.click("#manage")
    page.wait_for_selector("section.me .badge.managed", state="detached")
    spec.wait_for_selector(".badge.managed", state="detached")
    # a quick phrase: a bubble over your seat, for the spectator too
    page.click("#phrases-btn")
    page.click("#phrase-box [data-phrase='hurry']")
    page.wait_for_selector(".bubble[data-bubble='0']")
    assert page.locator(".bubble[data-bubble='0']").inner_text() == "快点吧"
    spec.wait_for_selector(".bubble[data-bubble='0']")
    assert page.evaluate(NO_SIDEWAYS) and spec.evaluate(NO_SIDEWAYS)
    # 解散: the only seated player's proposal ends the match at once
    page.click("#dissolve")
    page.wait_for_selector("#dissolved")
    assert page.locator("#dissolved").inner_text() == "本场已解散"
    spec.wait_for_selector("#dissolved")
    assert page.evaluate(NO_SIDEWAYS)
    page.goto(server + "/history")
    page.wait_for_selector(f"#games tr[data-game='{table_id}']")
    assert "解散" in page.locator(f"#games tr[data-game='{table_id}']").inner_text()
    assert not w.problems, w.problems
    assert not ws.problems, ws.problems
    spec.close()
    page.close()
