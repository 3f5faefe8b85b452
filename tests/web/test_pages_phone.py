"""Every page around the table at phone (390×844) and desktop (1280×800) width, in Chromium with no
CJK font (issue 24, items 1-6): the history is one card per game on a phone, the replay's every frame
and its settlement leave the controls usable, the 飞宝 payer's factor is said in words, what people
type draws ink, bad links and limits answer in the page's language, no decision codes (D3) are shown.
Skipped without Playwright or /usr/bin/chromium (.ci/run installs it)."""

from __future__ import annotations

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

from .serving import HAS_CHROMIUM, Watch, app_served, chromium  # noqa: E402

pytestmark = pytest.mark.skipif(not HAS_CHROMIUM, reason="needs Debian's chromium at /usr/bin/chromium")

SIZES = [(390, 844), (1280, 800)]
IDS = ["phone", "desktop"]
#: a match of four greedy bots whose sixth hand is won with a payer's 飞宝 (×2 for that payer, 注 1)
FEIBAO_SEED, FEIBAO_HAND = 88, 5


def _play_and_store(store, seed: int, hands: int | None = None) -> tuple[int, list]:
    """Play greedy self-play hands of match ``seed`` (all, or the first ``hands``) and store them."""
    from shangrao.bots import get_bot
    from shangrao.game.match import Match
    from shangrao.records.summary import hand_summary
    from shangrao.rules import DEFAULT_RULES

    m = Match(DEFAULT_RULES, seed=seed)
    bots = [get_bot("greedy", seed=f"{seed}:{i}") for i in range(4)]
    recs = []
    while not m.is_over and (hands is None or len(recs) < hands):
        g = m.new_hand()
        while not g.is_over:
            s = g.current_seat
            legal = g.legal_actions()
            g.apply(legal[0] if len(legal) == 1 else bots[s].choose(g.observation(s), legal))
        recs.append(m.finish_hand(g))
    gid = store.create_game("simulate", ["greedy"] * 4, seed=seed, rules=DEFAULT_RULES)
    for r in recs:
        store.append_hand(
            gid, r.hand_no, r.dealer, r.events, hand_summary(r.result, r.events), scores_after=list(r.result.scores)
        )
    if hands is None:
        store.finish_game(gid, list(m.scores))
    return gid, recs


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    from shangrao.records import Store

    db = tmp_path_factory.mktemp("pages") / "pages.sqlite3"
    store = Store(f"sqlite:///{db}")
    plain, _ = _play_and_store(store, 3, hands=2)
    feibao, recs = _play_and_store(store, FEIBAO_SEED, hands=FEIBAO_HAND + 1)
    store.close()
    factors = [w.score.payer_factors for w in recs[FEIBAO_HAND].result.wins]
    assert any(max(f) > 1 for f in factors), ("the scripted match no longer has a 飞宝 payer", factors)
    with app_served(f"sqlite:///{db}", bot_delay=0.01, claim_pause=0.02, tables_per_minute=1) as url:
        yield {"url": url, "plain": plain, "feibao": feibao}


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


NO_SIDEWAYS = "document.scrollingElement.scrollWidth <= innerWidth"
#: the boxes of the elements matched by a selector that overlap another of them (a list of index pairs)
OVERLAPS = """(sel) => { const bs = [...document.querySelectorAll(sel)].map(e => e.getBoundingClientRect())
  .filter(b => b.width > 0 && b.height > 0); const out = [];
  for (let i = 0; i < bs.length; i++) for (let j = i + 1; j < bs.length; j++) {
    const a = bs[i], b = bs[j];
    if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) out.push([i, j]); }
  return out; }"""
#: whether the element's centre is the element itself (nothing is drawn over it: it can be tapped)
ON_TOP = """(sel) => { const e = document.querySelector(sel); const b = e.getBoundingClientRect();
  const x = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2); return !!x && (x === e || e.contains(x)); }"""


@pytest.mark.parametrize("vw,vh", SIZES, ids=IDS)
def test_the_history_is_one_card_per_game_on_a_phone_and_a_table_on_a_desktop(site, browser, vw, vh):
    page = browser.new_page(viewport={"width": vw, "height": vh})
    w = Watch(page)
    page.goto(site["url"] + "/history?kinds=simulate")  # bot runs: shown when chosen (issue 38)
    page.wait_for_selector("#games tr[data-game]")
    assert page.evaluate(NO_SIDEWAYS), "the history scrolls sideways"
    rows = page.locator("#games tr[data-game]")
    assert rows.count() == 2
    assert page.evaluate(OVERLAPS, "#games tr[data-game]") == []
    assert page.evaluate(OVERLAPS, "#games tr[data-game]:first-child td") == []
    for i in range(rows.count()):
        box = rows.nth(i).bounding_box()
        assert box["height"] < 260, ("a game takes too much height", box)  # was ~900 px on a phone
        link = rows.nth(i).locator("a[href^='/replay/']:not(.review-link)")  # the 复盘 link beside it (issue 37)
        lb = link.bounding_box()
        assert lb["x"] >= 0 and lb["x"] + lb["width"] <= vw, "the replay link is cut off"
    text = page.locator("#games").inner_text()
    assert "simulate" not in text and "机器人模拟" in text  # the kind in the page's language
    assert not w.problems, w.problems
    page.close()


@pytest.mark.parametrize("vw,vh", SIZES, ids=IDS)
def test_every_replay_frame_and_the_settlement_leave_the_controls_usable(site, browser, vw, vh):
    page = browser.new_page(viewport={"width": vw, "height": vh})
    w = Watch(page)
    page.goto(f"{site['url']}/replay/{site['plain']}")
    page.wait_for_selector("#slider")
    last = int(page.locator("#slider").get_attribute("max"))
    assert last > 10
    for i in range(last + 1):
        page.evaluate(
            "(i) => { const s = document.getElementById('slider'); s.value = i; s.dispatchEvent(new Event('input')); }",
            i,
        )
        assert page.evaluate(NO_SIDEWAYS), f"frame {i} scrolls sideways"
        assert page.evaluate(OVERLAPS, ".replay-seat") == [], f"frame {i}: seats overlap"
    assert page.locator("#settlement").count() == 1
    assert page.evaluate(OVERLAPS, "#controls, #frame, #settlement") == [], "the settlement overlaps the board"
    for sel in ("#prev", "#step", "#slider", "#hand-select"):
        page.locator(sel).scroll_into_view_if_needed()
        assert page.evaluate(ON_TOP, sel), f"{sel} is covered at the last frame"
    page.click("#prev")
    assert page.locator("#pos").inner_text().strip() == f"{last - 1}/{last}"
    assert page.locator("#settlement").count() == 0
    assert not w.problems, w.problems
    page.close()


@pytest.mark.parametrize("vw,vh", SIZES, ids=IDS)
def test_the_settlement_says_in_words_why_a_feibao_payer_pays_double(site, browser, vw, vh):
    page = browser.new_page(viewport={"width": vw, "height": vh})
    w = Watch(page)
    page.goto(f"{site['url']}/replay/{site['feibao']}")
    page.wait_for_selector("#hand-select")
    with page.expect_response(f"**/hands/{FEIBAO_HAND}/frames"):
        page.select_option("#hand-select", str(FEIBAO_HAND))
    page.wait_for_timeout(100)
    page.evaluate(
        "() => { const s = document.getElementById('slider'); s.value = s.max; s.dispatchEvent(new Event('input')); }"
    )
    page.wait_for_selector("#settlement .flown-why")
    why = page.locator("#settlement .flown-why").inner_text()
    assert "飞宝" in why and "付分×2" in why and "打出过1张宝" in why, why
    assert page.evaluate(NO_SIDEWAYS)
    assert "(D3)" not in page.locator("#settlement").inner_text()
    assert not w.problems, w.problems
    page.close()


INK = """async (text) => { await document.fonts.load('32px ShangraoGB', text);
  const c = document.createElement('canvas'); c.width = 200; c.height = 48; const x = c.getContext('2d');
  const ink = (s, font) => { x.clearRect(0, 0, 200, 48); x.font = font; x.fillText(s, 2, 38);
    const d = x.getImageData(0, 0, 200, 48).data; const px = []; for (let i = 3; i < d.length; i += 4) px.push(d[i] > 100 ? 1 : 0); return px; };
  const name = ink(text, '32px ShangraoUI, ShangraoGB'), tofu = ink('\\ue000'.repeat(text.length), '32px ShangraoUI, ShangraoGB');
  return { ink: name.reduce((a, b) => a + b, 0), differs: name.some((v, i) => v !== tofu[i]),
           loaded: document.fonts.check('32px ShangraoGB', text) }; }"""


def test_a_typed_chinese_table_name_draws_ink_without_a_system_font(site, browser):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    w = Watch(page)
    page.goto(site["url"] + "/")
    page.wait_for_selector("#seat3 option", state="attached")
    page.fill("input[name=name]", "手机试玩")
    for i in (1, 2, 3):
        page.select_option(f"#seat{i}", "greedy")
    page.click("#create-btn")
    page.wait_for_url("**/t/*/*")
    page.wait_for_selector(".info .tname")
    assert "手机试玩" in page.locator(".info .tname").inner_text()
    family = page.evaluate("getComputedStyle(document.querySelector('.info .tname')).fontFamily")
    assert "ShangraoGB" in family, family
    got = page.evaluate(INK, "手机试玩")  # 试 is in no UI text: only the GB2312 fallback font has it
    assert got["loaded"] and got["differs"] and got["ink"] > 200, got
    assert not w.problems, w.problems
    page.close()


def test_bad_links_and_limits_answer_in_the_pages_language(site, browser):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    for path in ("/replay/999999", "/replay/abc", "/replay/-1"):
        r = page.goto(site["url"] + path)
        assert r.status == 404, path
        assert page.locator("[data-error=no-game]").count() == 1, path
        assert "没有这局对局记录" in page.locator("main").inner_text()
        assert page.locator("a[href='/']").count() >= 1
    # the tables-per-minute limit (1 here): the second table is refused in words, in the form, no alert
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    for _ in range(2):
        page.goto(site["url"] + "/")
        page.wait_for_selector("#seat3 option", state="attached")
        page.click("#create-btn")
        page.wait_for_timeout(50)
    page.wait_for_function(
        "document.getElementById('create-error') && document.getElementById('create-error').textContent.length > 0"
    )
    msg = page.locator("#create-error").inner_text()
    assert "一分钟后再试" in msg and "{" not in msg and "minute" not in msg, msg
    assert dialogs == []
    page.close()


def test_no_decision_code_is_shown_on_the_rules_page(site, browser):
    page = browser.new_page()
    page.goto(site["url"] + "/rules")
    page.wait_for_selector("#patterns tr td")
    text = page.locator("#patterns").inner_text()
    assert "有宝平糊" in text and "基本分 1 分" in text
    assert "(D3)" not in text and "D5" not in text
    page.close()


def test_every_bad_link_answers_a_chinese_page_with_a_way_home(site, browser):
    """A seat, join, spectator, room or replay link that names no such thing, or a parameter of
    the wrong form (``/t/abc/x`` was FastAPI's English JSON; ``/no-such-page`` was ``{"detail":
    "Not Found"}``): a page of the UI in Chinese, a link home, no console error but the status."""
    from shangrao.web.pages import ERRORS

    page = browser.new_page(viewport={"width": 390, "height": 844})
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(f"pageerror {e}"))
    page.on(
        "console",
        lambda m: problems.append(m.text) if m.type == "error" and "Failed to load resource" not in m.text else None,
    )  # (the error page's own 4xx status)
    bad = {
        "/t/abc/x": "no-table",
        "/t/999999/x": "no-table",
        "/t/-1/x": "no-table",
        "/join/abc": "no-table",
        "/join/999999": "no-table",
        "/watch/abc": "no-table",
        "/watch/999999": "no-table",
        "/room/abcdef": "no-room",
        "/room/999999": "no-room",
        "/room/12": "no-room",
        "/replay/abc": "no-game",
        "/no-such-page": "not-found",
        "/t/1": "no-table",
    }
    for path, code in bad.items():
        r = page.goto(site["url"] + path)
        status, zh, _en = ERRORS[code]
        assert r.status == status, (path, r.status)
        assert page.locator(f"main.errpage[data-error={code}]").count() == 1, (path, page.content()[:300])
        assert page.locator("main h1").inner_text() == zh, path
        assert page.locator("html").get_attribute("lang") == "zh", path
        assert page.locator("main a[href='/']").count() == 1, path
        assert page.evaluate(NO_SIDEWAYS), path
    assert problems == [], problems
    page.close()


#: a side seat (.opp.left, as the table draws it) with a meld of four tiles (a 明杠 of 北), built with
#: the page's own common.js and app.css: whether every tile lies inside the seat's column
SIDE_KONG = """() => { const side = el('div', { class: 'opp left' },
    el('div', { class: 'chip' }, el('span', { class: 'who', text: '3号·贪心' })),
    el('div', { class: 'melds' }, meldTiles({ kind: 'exposed_kong', tiles: [30, 30, 30, 30] }, -1),
      meldTiles({ kind: 'pung', tiles: [31, 31, 31] }, -1)));
  const board = el('div', { class: 'board' }, el('div', { class: 'opp top' }), side,
    el('div', { class: 'square' }), el('div', { class: 'opp right' }));
  document.body.append(board); const s = side.getBoundingClientRect();
  const out = [...side.querySelectorAll('.meld .tile')].map(t => t.getBoundingClientRect())
    .filter(b => b.left < s.left - 0.5 || b.right > s.right + 0.5 || b.width < 8).map(b => [b.left, b.right]);
  board.remove(); return out; }"""


@pytest.mark.parametrize("vw,vh", SIZES, ids=IDS)
def test_a_kong_at_a_side_seat_fits_its_column(site, browser, vw, vh):
    """A 明杠 (four tiles) of the left or right seat was wider than the seat's column on a phone
    (17vw, 66 px at 390 px) and was cut off at both edges (docs/web-watch-phone.png): each tile of a
    side seat's meld now lies inside the column."""
    page = browser.new_page(viewport={"width": vw, "height": vh})
    page.goto(site["url"] + "/rules")
    page.wait_for_selector("#patterns tr td")
    assert page.evaluate(SIDE_KONG) == []
    page.close()
