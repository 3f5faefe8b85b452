"""The replay page's review mode (issue 37) in Chromium at phone (390×844) and desktop width: the
summary on top once the background review is done, per decision the options as bars with the choice
marked, next/previous mistake and the "big mistakes only" filter stepping through them.  With
``SHANGRAO_SCREENSHOTS=DIR`` it saves the docs' screenshots there.  Skipped without Playwright or
/usr/bin/chromium."""

from __future__ import annotations

import os

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

from .serving import HAS_CHROMIUM, Watch, app_served, chromium  # noqa: E402

pytestmark = pytest.mark.skipif(not HAS_CHROMIUM, reason="needs Debian's chromium at /usr/bin/chromium")

SIZES = [(390, 844), (1280, 800)]
IDS = ["phone", "desktop"]
PLAYERS = ["random", "greedy", "expert", "greedy"]


def _play_and_store(store, seed: int, hands: int) -> int:
    from shangrao.bots import get_bot
    from shangrao.game.match import Match
    from shangrao.records.summary import hand_summary
    from shangrao.rules import DEFAULT_RULES

    m = Match(DEFAULT_RULES, seed=seed)
    bots = [get_bot(p, seed=f"{seed}:{i}") for i, p in enumerate(PLAYERS)]
    gid = store.create_game("simulate", PLAYERS, seed=seed, rules=DEFAULT_RULES)
    for _ in range(hands):
        g = m.new_hand()
        while not g.is_over:
            s = g.current_seat
            legal = g.legal_actions()
            g.apply(legal[0] if len(legal) == 1 else bots[s].choose(g.observation(s), legal))
        r = m.finish_hand(g)
        store.append_hand(
            gid, r.hand_no, r.dealer, r.events, hand_summary(r.result, r.events), scores_after=list(r.result.scores)
        )
    return gid


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    from shangrao.records import Store

    db = tmp_path_factory.mktemp("review") / "review.sqlite3"
    store = Store(f"sqlite:///{db}")
    gid = _play_and_store(store, 37, hands=2)
    store.close()
    with app_served(f"sqlite:///{db}", bot_delay=0.01, claim_pause=0.02, review_workers=1) as url:
        yield {"url": url, "game": gid}


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


NO_SIDEWAYS = "document.scrollingElement.scrollWidth <= innerWidth"


def _decision(page) -> dict:
    return page.evaluate("""() => { const b = document.getElementById('review-decision');
      const chosen = b.querySelector('.opt.chosen'); return { cls: b.className, chosen: chosen && chosen.dataset.action,
      bars: b.querySelectorAll('.opt .fill').length, head: b.querySelector('.review-head').textContent,
      pos: document.getElementById('pos').textContent.trim(), hand: document.getElementById('hand-select').value }; }""")


@pytest.mark.parametrize("vw,vh", SIZES, ids=IDS)
def test_the_review_shows_the_summary_and_steps_through_the_mistakes(site, browser, vw, vh):
    import json
    import urllib.request

    page = browser.new_page(viewport={"width": vw, "height": vh})
    w = Watch(page)
    page.goto(f"{site['url']}/replay/{site['game']}?review=1")
    page.wait_for_selector("#review-stats", timeout=120_000)  # the background review of two hands
    with urllib.request.urlopen(f"{site['url']}/api/games/{site['game']}/review?seat=0") as r:
        api = json.loads(r.read())
    mistakes = [d for h in api["hands"] for d in h["decisions"] if d["loss"] > 0.5]
    big = [d for d in mistakes if d["loss"] > 2]
    assert api["evaluator"] == "expert" and len(mistakes) >= 3, api["summary"]
    first = api["hands"][0]["hand"]
    if mistakes[0]["hand"] == first and mistakes[0]["step"] == 1:  # the first frame's decision: shown at once
        assert "mistake" in _decision(page)["cls"] or "big" in _decision(page)["cls"]
        mistakes = mistakes[1:]
    stats = page.locator("#review-stats").inner_text()
    assert f"{round(100 * api['summary']['0']['match_rate'])}%" in stats
    seen = []
    for m in mistakes:  # each click goes to the next mistake, across hands
        page.click("#next-mistake")
        page.wait_for_function(
            "([h, i]) => document.getElementById('hand-select').value === String(h) && "
            "document.getElementById('pos').textContent.trim().startsWith(i + '/')",
            arg=[m["hand"], m["step"] - 1],
        )
        d = _decision(page)
        assert "mistake" in d["cls"] or "big" in d["cls"], d
        assert d["chosen"] == m["chosen"] and d["bars"] >= 2, d
        assert f"{m['loss']:.2f}" in d["head"], d
        assert page.evaluate(NO_SIDEWAYS), f"{d['pos']} scrolls sideways"
        seen.append(d)
        if len(seen) == 1 and os.environ.get("SHANGRAO_SCREENSHOTS") and not big:
            page.screenshot(
                path=os.path.join(os.environ["SHANGRAO_SCREENSHOTS"], f"review-{IDS[SIZES.index((vw, vh))]}.png")
            )
    page.click("#prev-mistake")
    page.wait_for_function(
        "([h, p]) => document.getElementById('hand-select').value === h && "
        "document.getElementById('pos').textContent.trim() === p",
        arg=[seen[-2]["hand"], seen[-2]["pos"]],
    )
    if big:
        page.check("#big-only")
        page.goto(f"{site['url']}/replay/{site['game']}?review=1")
        page.wait_for_selector("#review-stats")
        page.check("#big-only")
        page.click("#next-mistake")
        page.wait_for_function("() => document.getElementById('pos').textContent.trim().split('/')[0] !== '0'")
        d = _decision(page)
        assert "big" in d["cls"], d
        if os.environ.get("SHANGRAO_SCREENSHOTS"):
            page.screenshot(
                path=os.path.join(os.environ["SHANGRAO_SCREENSHOTS"], f"review-{IDS[SIZES.index((vw, vh))]}.png")
            )
        reason = page.locator("#review-decision .reason")
        if reason.count():  # the reason in words, in the page's language (Chinese here)
            assert not any("a" <= ch <= "z" for ch in reason.inner_text()), reason.inner_text()
            if os.environ.get("SHANGRAO_SCREENSHOTS") and vw < 500:
                page.evaluate("document.getElementById('review-decision').scrollIntoView()")
                page.screenshot(path=os.path.join(os.environ["SHANGRAO_SCREENSHOTS"], "review-reason-phone.png"))
    assert not w.problems, w.problems
    page.close()


def test_the_history_links_each_game_to_its_review(site, browser):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(f"{site['url']}/history?kinds=simulate")
    link = page.locator(f"tr[data-game='{site['game']}'] a.review-link")
    assert link.get_attribute("href") == f"/replay/{site['game']}?review=1"
    page.close()


def test_the_history_shows_a_running_reviews_progress_until_it_is_done(site, browser):
    """GET /api/games says a review runs (``review``: done/total): the game's button reads 复盘中 1/2,
    and 复盘 once a later answer says it is done (the answers are the server's, the progress set here)."""
    import json
    import urllib.request

    with urllib.request.urlopen(f"{site['url']}/api/games") as r:
        rows = json.loads(r.read())
    answers = iter([1, None])

    def games(route):
        step = next(answers, None)
        body = [{**g, "review": {"done": step, "total": 2} if step and g["id"] == site["game"] else None} for g in rows]
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    page = browser.new_page(viewport={"width": 390, "height": 844})
    w = Watch(page)
    page.route("**/api/games?*", games)  # the history's filtered page and its progress polls alike
    page.route("**/api/games", games)
    page.goto(f"{site['url']}/history?kinds=web,room,play,simulate,arena")
    link = page.locator(f"tr[data-game='{site['game']}'] a.review-link")
    page.wait_for_function(
        "(sel) => document.querySelector(sel) && document.querySelector(sel).textContent === '复盘中 1/2'",
        arg=f"tr[data-game='{site['game']}'] a.review-link",
    )
    page.wait_for_function(
        "(sel) => document.querySelector(sel).textContent === '复盘'",
        arg=f"tr[data-game='{site['game']}'] a.review-link",
        timeout=10_000,
    )
    assert link.get_attribute("href") == f"/replay/{site['game']}?review=1"
    assert not w.problems, w.problems
    page.close()


def test_after_a_match_the_review_link_opens_the_review_made_when_it_ended(site, browser):
    """复盘这场 on the match's end screen: a one-hand match played by tapping at 390×844; the link opens
    the replay's review mode, whose summary comes (the review started when the match ended)."""
    from .test_browser import create_table, play_until_settlement

    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = ctx.new_page()
    w = Watch(page)
    create_table(page, site["url"], hands=1)
    tid = page.url.split("/t/")[1].split("/")[0]
    play_until_settlement(page, 390, 844)
    link = page.wait_for_selector("#match-end #review-game", timeout=20_000)
    assert link.inner_text() == "复盘这场" and link.get_attribute("href") == f"/replay/{tid}?review=1"
    if os.environ.get("SHANGRAO_SCREENSHOTS"):
        link.scroll_into_view_if_needed()
        page.screenshot(path=os.path.join(os.environ["SHANGRAO_SCREENSHOTS"], "review-link-phone.png"))
    link.click()
    page.wait_for_url(f"**/replay/{tid}?review=1")
    page.wait_for_selector("#review-stats", timeout=60_000)
    assert "一致率" in page.locator("#review-stats").inner_text()
    assert page.evaluate(NO_SIDEWAYS)
    assert not w.problems, w.problems
    ctx.close()
