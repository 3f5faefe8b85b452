#!/usr/bin/env python3
"""Write the web table's tile images: src/shangrao/web/static/tiles/{1m..9m,1p..9p,1s..9s,1z..7z,back,bao}.svg.

Our own drawings (same licence as the project): an ivory tile face; 万 tiles as a
Chinese numeral over 萬; 筒 as drawn dots; 条 as drawn sticks (1s a bird-less
single large stick in green/red); honors as their character (东南西北, 白 as a blue
frame, 发 green, 中 red); bao.svg is the red 宝 badge.

Every character is drawn as an SVG path, not as <text>: the outlines are taken once, at
build time, from Noto Serif CJK SC Bold (SIL Open Font License 1.1) with fontTools, so the
committed SVGs need no font on the machine that shows them.  Building needs the font file:
Debian's ``fonts-noto-cjk`` (``apt-get download fonts-noto-cjk && dpkg -x *.deb x`` is enough,
no install) and ``pip install fonttools``.  Run:

    python tools/make_tiles.py [--font PATH/TO/NotoSerifCJK-Bold.ttc]
"""

from __future__ import annotations

import argparse
from functools import cache, lru_cache
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "src" / "shangrao" / "web" / "static" / "tiles"
W, H = 60, 80
NUMS = "一二三四五六七八九"
FONT_NAMES = ("NotoSerifCJK-Bold.ttc",)
FONT_DIRS = ("/usr/share/fonts/opentype/noto", "/tmp/cjk/x/usr/share/fonts/opentype/noto")
FONT_FACE = "Noto Serif CJK SC Bold"
_font_path: Path | None = None


def find_font(explicit: str | None = None) -> Path:
    if explicit:
        return Path(explicit)
    for d in FONT_DIRS:
        for n in FONT_NAMES:
            p = Path(d) / n
            if p.exists():
                return p
    raise SystemExit("make_tiles: NotoSerifCJK-Bold.ttc not found; pass --font (see the module doc)")


@lru_cache(maxsize=1)
def _face():
    from fontTools.ttLib import TTCollection

    assert _font_path is not None
    for f in TTCollection(str(_font_path)).fonts:
        if f["name"].getDebugName(4) == FONT_FACE:
            return f
    raise SystemExit(f"make_tiles: no face {FONT_FACE!r} in {_font_path}")


@cache
def _glyph(ch: str) -> tuple[str, float, float, float, float]:
    """SVG path data of ``ch`` in font units (y up) and its ink box (xmin, ymin, xmax, ymax)."""
    from fontTools.pens.boundsPen import BoundsPen
    from fontTools.pens.svgPathPen import SVGPathPen

    font = _face()
    gs = font.getGlyphSet()
    name = font.getBestCmap()[ord(ch)]
    pen = SVGPathPen(gs)
    gs[name].draw(pen)
    bp = BoundsPen(gs)
    gs[name].draw(bp)
    return (pen.getCommands(), *bp.bounds)
RED, GREEN, BLUE, BLACK = "#c0262d", "#1f7a3a", "#1d4e89", "#1b1b1b"


def frame(body: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}">'
            f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="7" fill="#f7f1e1" stroke="#b9ad8f" stroke-width="2"/>'
            f'<rect x="4" y="4" width="{W - 8}" height="{H - 8}" rx="5" fill="#fffaf0"/>'
            f"{body}</svg>\n")


def text(x, y, s, size, color) -> str:
    """The character ``s`` as a path, its ink centred on (x, y), ``size`` px per em."""
    d, x0, y0, x1, y1 = _glyph(s)
    k = size / 1000
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return (f'<path fill="{color}" transform="translate({x - cx * k:.2f} {y + cy * k:.2f}) '
            f'scale({k:.4f} {-k:.4f})" d="{d}"/>')


def man(n: int) -> str:
    return frame(text(30, 25, NUMS[n - 1], 24, BLUE if n != 1 else BLACK) + text(30, 57, "萬", 26, RED))


DOT_POS = {
    1: [(30, 40)],
    2: [(30, 22), (30, 58)],
    3: [(16, 18), (30, 40), (44, 62)],
    4: [(18, 22), (42, 22), (18, 58), (42, 58)],
    5: [(18, 20), (42, 20), (30, 40), (18, 60), (42, 60)],
    6: [(19, 17), (41, 17), (19, 40), (41, 40), (19, 63), (41, 63)],
    7: [(15, 14), (30, 22), (45, 30), (19, 48), (41, 48), (19, 66), (41, 66)],
    8: [(19, 13), (41, 13), (19, 31), (41, 31), (19, 49), (41, 49), (19, 67), (41, 67)],
    9: [(15, 16), (30, 16), (45, 16), (15, 40), (30, 40), (45, 40), (15, 64), (30, 64), (45, 64)],
}


def dot(x, y, r, color) -> str:
    return (f'<circle cx="{x}" cy="{y}" r="{r}" fill="{color}"/>'
            f'<circle cx="{x}" cy="{y}" r="{r * 0.62:.1f}" fill="#fffaf0"/>'
            f'<circle cx="{x}" cy="{y}" r="{r * 0.3:.1f}" fill="{color}"/>')


def pin(n: int) -> str:
    if n == 1:
        return frame(f'<circle cx="30" cy="40" r="21" fill="{GREEN}"/>' + dot(30, 40, 16, RED)
                     + '<circle cx="30" cy="40" r="3" fill="#fffaf0"/>')
    r = {2: 11, 3: 9, 4: 9.5, 5: 8.5, 6: 8, 7: 7, 8: 6.8, 9: 6.8}[n]
    body = ""
    for i, (x, y) in enumerate(DOT_POS[n]):
        color = BLUE
        if n in (3, 5) and i == (1 if n == 3 else 2):
            color = RED
        if n == 7 and i < 3:
            color = GREEN
        if n == 9 and 3 <= i < 6:
            color = RED
        if n == 6 and i >= 2:
            color = RED
        body += dot(x, y, r, color)
    return frame(body)


STICK_POS = {
    2: [(30, 22), (30, 58)],
    3: [(30, 22), (19, 58), (41, 58)],
    4: [(19, 22), (41, 22), (19, 58), (41, 58)],
    5: [(16, 22), (44, 22), (30, 40), (16, 58), (44, 58)],
    6: [(16, 22), (30, 22), (44, 22), (16, 58), (30, 58), (44, 58)],
    7: [(30, 14), (16, 40), (30, 40), (44, 40), (16, 66), (30, 66), (44, 66)],
    8: [(14, 22), (25, 22), (35, 22), (46, 22), (14, 58), (25, 58), (35, 58), (46, 58)],
    9: [(16, 14), (30, 14), (44, 14), (16, 40), (30, 40), (44, 40), (16, 66), (30, 66), (44, 66)],
}


def stick(x, y, h, color) -> str:
    return (f'<rect x="{x - 3.5}" y="{y - h / 2}" width="7" height="{h}" rx="3.5" fill="{color}"/>'
            f'<line x1="{x}" y1="{y - h / 2 + 3}" x2="{x}" y2="{y + h / 2 - 3}" stroke="#fffaf0" stroke-width="1.2"/>'
            f'<line x1="{x - 3.5}" y1="{y}" x2="{x + 3.5}" y2="{y}" stroke="#fffaf0" stroke-width="1.2"/>')


def sou(n: int) -> str:
    if n == 1:  # a single tall bamboo with leaves
        return frame(stick(30, 40, 56, GREEN)
                     + f'<path d="M30 30 q-14 -6 -16 -18 q10 4 16 14z" fill="{GREEN}"/>'
                     + f'<path d="M30 46 q14 -6 16 -18 q-10 4 -16 14z" fill="{RED}"/>'
                     + text(30, 71, "一", 9, RED))
    h = 22 if n not in (7, 9) else 20
    body = ""
    for i, (x, y) in enumerate(STICK_POS[n]):
        color = GREEN
        if (n == 5 and i == 2) or (n == 7 and i == 0) or (n == 9 and i in (1, 4, 7)):
            color = RED
        body += stick(x, y, h, color)
    return frame(body)


def honor(i: int) -> str:
    if i == 5:  # 白: an empty frame
        return frame(f'<rect x="12" y="14" width="36" height="52" rx="3" fill="none" stroke="{BLUE}" stroke-width="4"/>')
    ch, color = [("东", BLACK), ("南", BLACK), ("西", BLACK), ("北", BLACK), None, ("发", GREEN), ("中", RED)][i - 1]
    return frame(text(30, 41, ch, 40, color))


def back() -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}">'
            f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="7" fill="#2e7d5b" stroke="#1d523b" stroke-width="2"/>'
            f'<rect x="6" y="6" width="{W - 12}" height="{H - 12}" rx="4" fill="none" stroke="#a7d7bf" stroke-width="1.5"/>'
            "</svg>\n")


def bao_badge() -> str:
    """The red 宝 badge (shown on every 宝 tile)."""
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 20" width="20" height="20">'
            '<rect x="0.5" y="0.5" width="19" height="19" rx="5" fill="#d9381e" stroke="#fff" stroke-width="1"/>'
            + text(10, 10.3, "宝", 15, "#ffffff") + "</svg>\n")


def main() -> None:
    global _font_path
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--font", help="path of NotoSerifCJK-Bold.ttc")
    _font_path = find_font(ap.parse_args().font)
    OUT.mkdir(parents=True, exist_ok=True)
    for n in range(1, 10):
        (OUT / f"{n}m.svg").write_text(man(n), encoding="utf-8")
        (OUT / f"{n}p.svg").write_text(pin(n), encoding="utf-8")
        (OUT / f"{n}s.svg").write_text(sou(n), encoding="utf-8")
    for i in range(1, 8):
        (OUT / f"{i}z.svg").write_text(honor(i), encoding="utf-8")
    (OUT / "back.svg").write_text(back(), encoding="utf-8")
    (OUT / "bao.svg").write_text(bao_badge(), encoding="utf-8")
    print(f"wrote 35 tiles and the 宝 badge to {OUT}")


if __name__ == "__main__":
    main()
