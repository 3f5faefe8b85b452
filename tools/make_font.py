#!/usr/bin/env python3
"""Write the web UI's fonts, subsets of Noto Sans CJK SC Regular (SIL Open Font License 1.1, the
licence text beside them in OFL.txt):

* ``static/fonts/ui-sc.woff2`` holds only the characters the UI can show: every CJK character and
  full-width sign in the static files and in the Python sources outside ``cli/`` (pattern,
  doubling, bonus and transfer names come from the engine); every page loads it.
* ``static/fonts/gb2312.woff2`` holds every character of GB2312 (its 6,763 hanzi and its signs,
  ~1.1 MiB): the fallback for what people type — table and player names — which the browser
  fetches only when a page shows a character the first font lacks.

So Chinese text renders in a browser on a machine with no CJK font.  Building needs the font
file (Debian's ``fonts-noto-cjk``: ``apt-get download fonts-noto-cjk && dpkg -x *.deb x`` is
enough, no install) and ``pip install 'fonttools[woff]'``.  Run after changing UI text:

    python tools/make_font.py [--font PATH/TO/NotoSansCJK-Regular.ttc]
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "src" / "shangrao"
OUT = PKG / "web" / "static" / "fonts" / "ui-sc.woff2"
OUT_GB = PKG / "web" / "static" / "fonts" / "gb2312.woff2"
FONT_DIRS = ("/usr/share/fonts/opentype/noto", "/tmp/cjk/x/usr/share/fonts/opentype/noto")
FACE = "Noto Sans CJK SC"
# CJK ideographs, CJK punctuation, full-width forms, general punctuation (…, —, ·), arrows, box signs
WANTED = re.compile(r"[\u2000-\u206f\u2190-\u21ff\u2460-\u24ff\u25a0-\u25ff\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")


def characters() -> str:
    chars = set()
    files = [p for p in (PKG / "web" / "static").rglob("*") if p.suffix in (".html", ".js", ".css")]
    files += [p for p in PKG.rglob("*.py") if "cli" not in p.relative_to(PKG).parts]  # the terminal's text is not shown
    for p in files:
        chars.update(WANTED.findall(p.read_text(encoding="utf-8")))
    return "".join(sorted(chars))


def gb2312() -> str:
    """Every character of GB2312: rows 1-9 (signs, full-width forms) and 16-87 (the hanzi)."""
    chars = []
    for hi in [*range(0xA1, 0xAA), *range(0xB0, 0xF8)]:
        for lo in range(0xA1, 0xFF):
            try:
                chars.append(bytes([hi, lo]).decode("gb2312"))
            except UnicodeDecodeError:
                pass
    return "".join(chars)


def write(font_path: Path, text: str, out: Path, *, layout: bool) -> None:
    from fontTools import subset
    from fontTools.ttLib import TTCollection

    font = next(f for f in TTCollection(str(font_path)).fonts if f["name"].getDebugName(4) == FACE)
    opts = subset.Options()
    opts.flavor = "woff2"
    opts.layout_features = ["*"] if layout else []
    opts.hinting = layout
    opts.name_IDs = ["*"]
    opts.name_languages = ["*"]
    opts.notdef_outline = True
    sub = subset.Subsetter(opts)
    sub.populate(text=text)
    sub.subset(font)
    out.parent.mkdir(parents=True, exist_ok=True)
    font.flavor = "woff2"
    font.recalcTimestamp = False  # the same input gives the same file
    font.save(str(out))
    print(f"wrote {out} ({out.stat().st_size // 1024} KiB, {len(text)} characters)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--font", help="path of NotoSansCJK-Regular.ttc")
    args = ap.parse_args()
    path = Path(args.font) if args.font else next(
        (Path(d) / "NotoSansCJK-Regular.ttc" for d in FONT_DIRS if (Path(d) / "NotoSansCJK-Regular.ttc").exists()),
        None)
    if path is None:
        raise SystemExit("make_font: NotoSansCJK-Regular.ttc not found; pass --font (see the module doc)")
    write(path, characters(), OUT, layout=True)
    write(path, gb2312(), OUT_GB, layout=False)  # names: plain glyphs, no hinting (half the size)


if __name__ == "__main__":
    main()
