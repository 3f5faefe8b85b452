"""对局记录 in Chromium (issue 38): a ``shangrao simulate --engine python --hands 8`` run stored beside a
web game and terminal games — the simulation hidden by default and shown when ticked, the browser's
own table first with its badge and alone under 只看我的, ten games a page, the choice kept over a
reload.  Skipped without Playwright or /usr/bin/chromium."""

from __future__ import annotations

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

from .serving import HAS_CHROMIUM, Watch, app_served, chromium  # noqa: E402

pytestmark = pytest.mark.skipif(not HAS_CHROMIUM, reason="needs Debian's chromium at /usr/bin/chromium")

TERMINAL = 11  # terminal games: with the web table, two pages of ten


def _listed(page) -> list[int]:
    return [int(x) for x in page.eval_on_selector_all("#games tr[data-game]", "rs => rs.map(r => r.dataset.game)")]


def _wait_listed(page, count: int) -> list[int]:
    page.wait_for_function("n => document.querySelectorAll('#games tr[data-game]').length === n", arg=count)
    return _listed(page)


def test_history_hides_a_simulate_run_by_default_shows_it_when_chosen_and_pages(tmp_path):
    from typer.testing import CliRunner

    from shangrao.cli import app
    from shangrao.records import Store

    db = f"sqlite:///{tmp_path / 'history.sqlite3'}"
    store = Store(db)
    terminal = [
        store.create_game("play", ["human", "greedy", "greedy", "greedy"], seed=i, rules={}) for i in range(TERMINAL)
    ]
    store.close()
    run = CliRunner().invoke(app, ["simulate", "--engine", "python", "--hands", "8", "--db", db])
    assert run.exit_code == 0, run.output
    sim = Store(db).list_games(mode="simulate")
    assert len(sim) == 1 and sim[0].hands_played == 8
    with app_served(db, bot_delay=0.05, claim_pause=0.05) as url, chromium() as br:
        page = br.new_page(viewport={"width": 390, "height": 844})
        w = Watch(page, aborted_ok=True)
        made = page.request.post(url + "/api/tables", data={"name": "我的桌"}).json()
        page.goto(url + made["url"])  # the table page remembers the seat (localStorage)
        page.wait_for_selector("#hand .tile")
        page.goto(url + "/history")
        first = _wait_listed(page, 10)
        # the browser's own table first, with its badge; newest first after it; no simulation
        assert first == [made["id"], *terminal[::-1][:9]]
        assert page.locator(f"tr[data-game='{made['id']}'] .mine-badge").count() == 1
        assert sim[0].id not in first and page.locator("#prev-page").is_disabled()
        page.click("#next-page")
        page.wait_for_function("() => document.getElementById('page-no').textContent.includes('2')")
        assert _wait_listed(page, 2) == terminal[1::-1] and page.locator("#next-page").is_disabled()
        # ticked: the simulation is listed (newest, after the browser's own), from page 1 again
        page.check("input[name=kind][value=simulate]")
        assert _wait_listed(page, 10)[:2] == [made["id"], sim[0].id]
        assert "机器人模拟" in page.locator(f"tr[data-game='{sim[0].id}']").inner_text()
        page.reload()  # the choice is the browser's
        assert _wait_listed(page, 10)[:2] == [made["id"], sim[0].id]
        assert page.locator("input[name=kind][value=simulate]").is_checked()
        page.check("#mine-only")
        assert _wait_listed(page, 1) == [made["id"]]
        page.uncheck("#mine-only")
        page.uncheck("input[name=kind][value=play]")
        assert _wait_listed(page, 2) == [made["id"], sim[0].id]
        assert not w.problems, w.problems
        page.close()
