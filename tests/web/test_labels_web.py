"""The web client's labels come from the server's table (issue 11: one home for every name).

Every page carries :func:`shangrao.labels.labels_table` as a JSON block that ``common.js`` builds its
words from, and the static JS holds no copy of a label of an action, meld, win way, pattern,
doubling, bonus or bot.
"""

from __future__ import annotations

import json
import re

from fastapi.testclient import TestClient

from shangrao.bots import BOTS, STRONGEST
from shangrao.labels import labels_table
from shangrao.web.app import STATIC_DIR, create_app

#: the sections whose words have their home on the server
SECTIONS = ("actions", "melds", "win_by", "patterns", "doublings", "bonuses", "bots", "phrases", "manners")

#: static code allowed to name labels inside running text, and why:
#: * rules.js is the 规则 page's prose, written by hand in both languages; it names 飞宝, 接宝, 抢杠 …
#:   inside sentences that explain them (its table of patterns and doublings comes from /api/patterns).
#: * lobby.js RULE_NAMES are the names of the rule options (碰杠奖励, "地糊 allowed" …): compounds of
#:   labels whose home would be ``RuleSet``, which has no labels table; they are not labels of the table.
PROSE_FILES = {"rules.js"}
PROSE_BLOCKS = {"lobby.js": re.compile(r"const RULE_NAMES = \{.*?\n\};", re.S)}

# a JS token stream reduced to what matters here: comments (skipped) and string literals
_TOKENS = re.compile(r"//[^\n]*|/\*.*?\*/|\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`", re.S)
# what separates the words of a literal: placeholders, spaces, ASCII and full-width punctuation
_BETWEEN = re.compile(r"\$\{[^}]*\}|\{\d+\}|[\s\"'`,.;:!?()\[\]/·…—×+=<>|、，。；：！？（）“”]+")


def _literal_words(text: str):
    for m in _TOKENS.finditer(text):
        tok = m.group()
        if tok.startswith("/"):
            continue  # a comment: examples of what the UI shows are not copies
        for word in _BETWEEN.split(tok[1:-1]):
            if word:
                yield text.count("\n", 0, m.start()) + 1, word


def _page_table(html: str) -> dict:
    m = re.search(r'<script id="labels" type="application/json">(.*?)</script>', html, re.S)
    assert m, "the page carries no labels block"
    return json.loads(m.group(1))


def test_static_js_holds_no_copy_of_a_server_label():
    table = labels_table()
    zh = {v["zh"]: f"{sec}.{key}" for sec in SECTIONS for key, v in table[sec].items()}
    copies = []
    files = sorted(STATIC_DIR.glob("*.js")) + sorted(STATIC_DIR.glob("*.html"))
    assert any(p.name == "common.js" for p in files)
    for path in files:
        if path.name in PROSE_FILES:
            continue
        text = path.read_text(encoding="utf-8")
        if path.name in PROSE_BLOCKS:
            text = PROSE_BLOCKS[path.name].sub(lambda m: "\n" * m.group().count("\n"), text)
        copies += [f"{path.name}:{line}: {word!r} is {zh[word]}" for line, word in _literal_words(text) if word in zh]
    assert not copies, "labels copied into the static JS (take them from LABELS):\n" + "\n".join(copies)


def test_the_js_dictionary_has_no_entry_for_a_server_label():
    text = (STATIC_DIR / "common.js").read_text(encoding="utf-8")
    block = re.search(r"const I18N = \{(.*?)\n\};", text, re.S)
    assert block
    keys = set(re.findall(r"(?<![\w.\"'])(\w+):\s", block.group(1)))
    table = labels_table()
    ids = set(table["actions"]) | set(table["win_by"]) | set(table["bots"]) | {f"{b}_s" for b in table["bots"]}
    assert keys and not keys & ids, f"I18N holds its own words for {sorted(keys & ids)}"


def test_every_page_carries_the_labels_table():
    want = json.loads(json.dumps(labels_table()))
    with TestClient(create_app("sqlite://", resume=False)) as c:
        d = c.post("/api/tables", json={"hands": 1, "seats": ["human", "human", "human"], "name": "t"}).json()
        for url in ("/", "/history", "/rules", "/replay/1", d["url"], "/error/full", "/join/999", "/t/999/x"):
            r = c.get(url)
            assert _page_table(r.text) == want, url
        assert c.get("/api/labels").json() == want


def test_the_lobby_offers_every_registered_bot_the_strongest_by_default():
    with TestClient(create_app("sqlite://", resume=False)) as c:
        info = c.get("/api/rules").json()
        table = c.get("/api/labels").json()
    assert info["bots"] == list(BOTS) and "expert" in info["bots"]
    assert info["default_bot"] == STRONGEST == "expert"
    for name, entry in BOTS.items():
        words = table["bots"][name]
        assert entry.label.startswith(f"{words['zh']} {name}: ")  # the registry label's form
        assert words == {"zh": words["zh"], "en": name, "label": entry.label}
