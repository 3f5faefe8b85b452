"""The static assets need no font on the machine: tile SVGs draw every glyph as a path, and the UI
font subset holds every Chinese character the UI and the engine's names use (rerun
tools/make_font.py after changing UI text)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from shangrao.web.app import STATIC_DIR

ROOT = Path(__file__).resolve().parents[2]


def test_tiles_have_no_text_elements():
    svgs = sorted((STATIC_DIR / "tiles").glob("*.svg"))
    assert len(svgs) == 36  # 34 kinds, back, the 宝 badge
    for p in svgs:
        text = p.read_text(encoding="utf-8")
        assert "<text" not in text and "font-family" not in text, p.name


def test_ui_font_subset_covers_every_ui_character():
    pytest.importorskip("fontTools")
    pytest.importorskip("brotli")
    from fontTools.ttLib import TTFont

    spec = importlib.util.spec_from_file_location("make_font", ROOT / "tools" / "make_font.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["make_font"] = mod
    spec.loader.exec_module(mod)
    font = TTFont(str(STATIC_DIR / "fonts" / "ui-sc.woff2"))
    cmap = font.getBestCmap()
    missing = [c for c in mod.characters() if ord(c) not in cmap and ord(c) > 0x2FFF]
    assert not missing, f"run tools/make_font.py: the subset lacks {''.join(missing)}"
    assert (STATIC_DIR / "fonts" / "OFL.txt").read_text(encoding="utf-8").count("SIL OPEN FONT LICENSE") >= 1
