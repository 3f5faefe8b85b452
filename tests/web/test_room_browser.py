"""A room played by four browser contexts (issue 24), in Chromium with no CJK font: one opens the
room in the lobby, one joins by typing its code, two by its link; a fifth is told the room is full;
two matches are played (each member opens their seat, then leaves it to the stand-in, so the hands
finish quickly); the 战绩 totals on the room page equal the sum of the stored hands' deltas; the room
page at 390×844 and 1280×800 has no horizontal scroll, no overlapping element boxes and no console
error.  Skipped without Playwright or /usr/bin/chromium (.ci/run installs it)."""

from __future__ import annotations

import json
import urllib.request

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

from .serving import HAS_CHROMIUM, app_served, chromium  # noqa: E402
from .serving import Watch as _Watch  # noqa: E402
from .test_pages_phone import NO_SIDEWAYS, OVERLAPS  # noqa: E402

pytestmark = pytest.mark.skipif(not HAS_CHROMIUM, reason="needs Debian's chromium at /usr/bin/chromium")

NAMES = ["老王", "小李", "阿三", "丁丁"]
#: the room page's leaf boxes, none of which may overlap another
ROOM_BOXES = (
    "#room h1, .room-code-line > span, #copy-link, #members li, #room-join p, #room-join label, "
    "#room-join button, #room-full, #current h2, #current p, #go-seat, #start-match, #standings tr, #csv"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("room") / "room.sqlite3"
    # an absent member's stand-in plays at once (the members look at their seat, then leave it)
    with app_served(
        f"sqlite:///{db}",
        bot_delay=0.0,
        claim_pause=0.0,
        claim_timeout=60,
        turn_timeout=120,
        absent_timeout=0.0,
        next_hand_timeout=0.0,
        standin_bot="random",
    ) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


class Watch(_Watch):
    """A page's problems, as :class:`serving.Watch`, except the table page's images cut short when the
    member leaves their seat at once (aborted by the navigation, not failed)."""

    def __init__(self, page) -> None:
        super().__init__(page, aborted_ok=True)


def api(url: str):
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.load(r)


def check_layout(page, what: str) -> None:
    assert page.evaluate(NO_SIDEWAYS), f"{what}: the room page scrolls sideways"
    assert page.evaluate(OVERLAPS, ROOM_BOXES) == [], f"{what}: boxes overlap"


def visit_seat(page, server: str, code: str) -> None:
    """Open my seat at the current match from the room page (去我的座位), see my hand, go back."""
    page.wait_for_selector("#go-seat", timeout=20000)
    page.click("#go-seat")
    page.wait_for_url("**/t/*/*")
    page.wait_for_selector("#hand .tile", timeout=20000)
    shown = " ".join(page.locator(".chip .who").all_inner_texts())
    assert sum(name in shown for name in NAMES) == 3, shown  # the others by the names they chose
    page.goto(f"{server}/room/{code}")
    page.wait_for_selector("#room-code-big")


def test_four_browsers_play_two_matches_in_a_room_and_its_standings_are_the_stored_hands(server, browser):
    phone = {"width": 390, "height": 844}
    ctxs = [browser.new_context(viewport=phone) for _ in range(4)]
    pages = [c.new_page() for c in ctxs]
    watches = [Watch(p) for p in pages]
    a, b, _c, d = pages
    # 开房间 in the lobby
    a.goto(server + "/")
    a.fill("#room-player", NAMES[0])
    a.fill("#room-open input[name=hands]", "1")
    a.click("#room-open-btn")
    a.wait_for_url("**/room/*")
    code = a.locator("#room-code-big").inner_text()
    assert len(code) == 6 and code.isdigit()
    # 进入房间 by typing the code, and by the link
    b.goto(server + "/")
    b.fill("#room-code", code)
    b.click("#room-enter-btn")
    b.wait_for_url(f"**/room/{code}")
    for seat, (p, name) in enumerate(zip(pages[1:], NAMES[1:]), 1):
        if p is not b:
            p.goto(f"{server}/room/{code}")
        p.fill("#join-player", name)
        p.click("#room-join-btn")
        p.wait_for_selector(f'#members li[data-seat="{seat}"]:not(.empty)')
        assert name in p.locator(f'#members li[data-seat="{seat}"]').inner_text()
    check_layout(d, "phone, four members")
    # a fifth is told in words that the room is full
    extra = browser.new_context(viewport=phone)
    e = extra.new_page()
    we = Watch(e)
    e.goto(f"{server}/room/{code}")
    e.wait_for_selector("#room-full")
    assert e.locator("#room-full").inner_text() == api(server + "/api/labels")["room"]["room_full"]["zh"]
    assert not e.locator("#room-join").count()
    check_layout(e, "phone, a stranger")
    extra.close()
    assert we.problems == []
    games = []
    for match in (1, 2):
        starter = pages[match - 1]
        starter.wait_for_selector("#start-match")
        starter.click("#start-match")  # 开局, then 再来一局
        starter.wait_for_url("**/t/*/*")
        starter.wait_for_selector("#hand .tile", timeout=20000)
        table_url = starter.url
        starter.goto(f"{server}/room/{code}")
        for p in pages:
            if p is not starter:
                p.reload()
                if p.locator("#go-seat").count() or p.locator('#current-state:not([data-status="finished"])').count():
                    visit_seat(p, server, code)
        for p in pages:
            p.wait_for_selector('#current-state[data-status="finished"]', state="attached", timeout=60000)
            p.wait_for_selector(f'#standings tr[data-match="{match}"]', state="attached", timeout=10000)
        games.append(int(a.locator("#current-state").get_attribute("data-table")))
    assert games[0] != games[1]
    # the finished match's table leads back to the room
    b.goto(table_url)
    b.wait_for_selector("#back-room", timeout=20000)
    assert b.locator("#back-room").get_attribute("href") == f"/room/{code}"
    b.goto(f"{server}/room/{code}")
    # the 战绩 on the page is the sum of the stored hands of both matches
    stored = [0, 0, 0, 0]
    for gid in games:
        for h in api(f"{server}/api/games/{gid}")["hands"]:
            stored = [x + y for x, y in zip(stored, h["result"]["deltas"])]
    for p in pages:
        shown = [int(x) for x in p.locator("#standings-total td").evaluate_all("els => els.map(e => e.dataset.total)")]
        assert shown == stored
    players = api(f"{server}/api/games/{games[1]}")["players"]
    assert players == ["human"] * 4
    check_layout(a, "phone, after two matches")
    for vw, vh in ((1280, 800),):
        a.set_viewport_size({"width": vw, "height": vh})
        a.reload()
        a.wait_for_selector("#standings-total")
        check_layout(a, f"{vw}×{vh}")
    csv = ctxs[0].request.get(f"{server}/room/{code}/standings.csv")
    assert csv.ok and csv.body().startswith(b"\xef\xbb\xbf")
    assert [int(x) for x in csv.body().decode("utf-8-sig").strip().splitlines()[-1].split(",")[4:]] == stored
    for w in watches:
        assert w.problems == []
    for ctx in ctxs:
        ctx.close()


def test_a_bad_room_code_answers_a_chinese_page_without_console_errors(server, browser):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" and "404" not in m.text else None)
    for path in ("/room/12345", "/room/abcdef"):
        r = page.goto(server + path)
        assert r.status == 404
        assert page.locator("main.errpage h1").inner_text().startswith("没有这个房间")
        assert page.evaluate(NO_SIDEWAYS)
    page.goto(server + "/")
    page.fill("#room-code", "12a")
    page.click("#room-enter-btn")
    assert "没有这个房间" in page.locator("#room-error").inner_text()
    page.click("#room-open-btn")  # no name: said under the form, in the page's words
    page.wait_for_function("document.getElementById('room-error').textContent.includes('名字')")
    assert problems == []
    page.close()


#: the pixels of an element's own text drawn in its own computed font on a canvas, against the same
#: text with the ``rare`` characters (in no UI text: only the GB2312 fallback font has them) put as a
#: character no font has (a tofu box): they differ only if the page's fonts draw the rare ones
ELEMENT_INK = """async ([sel, rare]) => { const e = document.querySelector(sel); const st = getComputedStyle(e);
  const font = `${st.fontWeight} 32px ${st.fontFamily}`; await document.fonts.load(font, e.textContent);
  const c = document.createElement('canvas'); c.width = 400; c.height = 48; const x = c.getContext('2d');
  const ink = (s) => { x.clearRect(0, 0, 400, 48); x.font = font; x.fillText(s, 2, 38);
    const d = x.getImageData(0, 0, 400, 48).data; const px = []; for (let i = 3; i < d.length; i += 4) px.push(d[i] > 100 ? 1 : 0); return px; };
  let tofu = e.textContent; for (const ch of rare) tofu = tofu.replaceAll(ch, '\\ue000');
  const got = ink(e.textContent), box = ink(tofu);
  return { text: e.textContent, family: st.fontFamily, ink: got.reduce((a, b) => a + b, 0),
           differs: got.some((v, i) => v !== box[i]), loaded: [...rare].every(ch => document.fonts.check('32px ShangraoGB', ch)) }; }"""


def assert_draws_ink(page, sel: str, name: str, rare: str) -> None:
    page.wait_for_function("document.fonts.status === 'loaded'")
    got = page.evaluate(ELEMENT_INK, [sel, rare])
    assert name in got["text"], (sel, got)
    assert "ShangraoGB" in got["family"], (sel, got)
    assert got["loaded"] and got["differs"] and got["ink"] > 200, (sel, got)


def test_a_typed_room_name_and_member_name_draw_ink_on_the_room_page_and_at_its_table(server, browser):
    phone = {"width": 390, "height": 844}
    ctxs = [browser.new_context(viewport=phone) for _ in range(2)]
    a, b = (c.new_page() for c in ctxs)
    wa, wb = Watch(a), Watch(b)
    room, host = "周末试玩", "老赵"  # 试 and 赵 are in no UI text (the UI subset lacks them)
    a.goto(server + "/")
    a.fill("#room-player", host)
    a.fill("#room-open input[name=name]", room)
    a.fill("#room-open input[name=hands]", "1")
    a.click("#room-open-btn")
    a.wait_for_url("**/room/*")
    code = a.locator("#room-code-big").inner_text()
    b.goto(f"{server}/room/{code}")
    b.fill("#join-player", "小钱")
    b.click("#room-join-btn")
    b.wait_for_selector('#members li[data-seat="1"]:not(.empty)')
    for p in (a, b):  # the room page: its name and the host's, as each member sees them
        assert_draws_ink(p, "#room h1", room, "试")
        assert_draws_ink(p, '#members li[data-seat="0"] .member-name', host, "赵")
    a.click("#start-match")
    a.wait_for_url("**/t/*/*")
    a.wait_for_selector("#hand .tile", timeout=20000)
    b.reload()
    b.wait_for_selector("#go-seat", timeout=20000)
    b.click("#go-seat")
    b.wait_for_url("**/t/*/*")
    b.wait_for_selector('.chip[data-seat="0"] .who', timeout=20000)
    assert_draws_ink(b, '.chip[data-seat="0"] .who', host, "赵")  # the host's seat name at the room's table
    if room in " ".join(b.locator(".info .tname").all_inner_texts()):  # the table's name, where it is shown
        assert_draws_ink(b, ".info .tname", room, "试")
    assert wa.problems == [] and wb.problems == []
    for ctx in ctxs:
        ctx.close()
