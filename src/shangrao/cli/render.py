"""Rich renderings shared by the commands: tiles with Chinese names, readings, settlements."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.console import Group as RichGroup
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from ..analysis import Analysis, Form, Reading
from ..melds import Meld
from ..scoring import ScoreResult, WinSituation
from ..scoring.items import seed_clause
from ..tiles import format_tile, format_tiles, tile_name

__all__ = [
    "FORM_NAMES",
    "PAYER_NAMES",
    "meld_text",
    "discards_text",
    "reading_text",
    "render_analysis",
    "render_score",
    "shanten_text",
    "short_meld_text",
    "short_melds_text",
    "short_name",
    "substitution_text",
    "tiles_text",
]

FORM_NAMES = {
    Form.STANDARD: "基本牌型 standard",
    Form.SEVEN_PAIRS: "七对 seven_pairs",
    Form.SHISANLANG: "十三浪 shisanlang",
    Form.JIUYAO: "九幺 jiuyao",
}

#: payers in seat order after the winner
PAYER_NAMES = ("下家 next", "对家 across", "上家 previous")

BAO_STYLE = "bold magenta"


#: the waits of a hand in the 宝吊 state (宝吊头, D5): every drawn tile wins, so no list of ~33 kinds
ANY_TILE_BAODIAO = "any tile (宝吊)"


def tiles_text(kinds: Iterable[int], bao: int | None = None, *, sort: bool = True) -> Text:
    """Chinese names separated by spaces, each 宝 marked ``(宝)`` and highlighted, then the mpsz."""
    ks = sorted(kinds) if sort else list(kinds)
    text = Text()
    for i, k in enumerate(ks):
        if i:
            text.append(" ")
        if bao is not None and k == bao:
            text.append(tile_name(k) + "(宝)", style=BAO_STYLE)
        else:
            text.append(tile_name(k))
    if ks:
        text.append(f"  [{format_tiles(ks, sort=sort)}]", style="dim")
    else:
        text.append("—", style="dim")
    return text


_SHORT_HONORS = ("东", "南", "西", "北", "白", "发", "中")


def short_name(kind: int) -> str:
    """The compact Chinese name of a kind: ``八万``, ``五筒``, and one character for honours (``东``, ``中``)."""
    return _SHORT_HONORS[kind - 27] if kind >= 27 else tile_name(kind)


def discards_text(kinds: Sequence[int], bao: int | None = None) -> Text:
    """A seat's discards in order, compact Chinese names (``中 白 西 八万``); a 宝 (飞宝) is highlighted."""
    if not kinds:
        return Text("—", style="dim")
    text = Text()
    for i, k in enumerate(kinds):
        if i:
            text.append(" ")
        text.append(short_name(k), style=BAO_STYLE if bao is not None and k == bao else "")
    return text


def meld_text(meld: Meld) -> Text:
    """``碰 五筒×3 (pung:555p)``; a chow lists its three tiles."""
    t = Text(meld.type.chinese + " ", style="bold")
    if len(set(meld.tiles)) == 1:
        t.append(f"{tile_name(meld.tiles[0])}×{len(meld.tiles)}")
    else:
        t.append(" ".join(tile_name(k) for k in meld.tiles))
    t.append(f" ({meld})", style="dim")
    return t


def short_meld_text(meld: Meld, bao: int | None = None) -> Text:
    """Compact Chinese for the table: ``吃 五六七筒``, ``碰 七万×3``, ``碰杠 南×4``."""
    t = Text(meld.type.chinese + " ", style="bold")
    ks = meld.tiles
    if len(set(ks)) == 1:
        t.append(f"{short_name(ks[0])}×{len(ks)}", style=BAO_STYLE if ks[0] == bao else "")
    else:
        suit = tile_name(ks[0])[-1]
        for k in ks:
            t.append(tile_name(k)[0], style=BAO_STYLE if k == bao else "")
        t.append(suit)
    return t


def short_melds_text(melds: Sequence[Meld], bao: int | None = None) -> Text:
    if not melds:
        return Text("—", style="dim")
    return Text("  ").join(short_meld_text(m, bao) for m in melds)


def melds_text(melds: Sequence[Meld]) -> Text:
    if not melds:
        return Text("—", style="dim")
    return Text("  ").join(meld_text(m) for m in melds)


def reading_text(reading: Reading) -> Text:
    """The groups of a reading, 宝 tiles marked ``*`` (e.g. ``123m 456p 5z5z*``)."""
    t = Text()
    for i, g in enumerate(reading.groups):
        if i:
            t.append(" ")
        for k, wild in zip(g.tiles, g.wild):
            t.append(format_tile(k) + ("*" if wild else ""), style=BAO_STYLE if wild else "")
    return t


def substitution_text(reading: Reading) -> str:
    """What each 宝 stands for: ``宝→白(5z) 宝→自身`` or ``no 宝 in hand``."""
    if reading.bao is None or not reading.substitutions:
        return "no 宝 in hand"
    parts = []
    for k in reading.substitutions:
        if k == reading.bao:
            parts.append(f"宝→itself {format_tile(k)}")
        else:
            parts.append(f"宝→{tile_name(k)}({format_tile(k)})")
    acting = "有宝 acting" if reading.bao_acting else "无宝 not acting"
    return ", ".join(parts) + f"  [{acting}]"


def shanten_text(shanten: int) -> str:
    if shanten >= 90:  # INFINITE_SHANTEN: no form can be completed with the tiles that exist
        return "no complete hand can be reached with the tiles left"
    if shanten < 0:
        return f"{shanten} (complete 糊牌牌形)"
    if shanten == 0:
        return "0 (ready 听牌)"
    return str(shanten)


def render_analysis(a: Analysis, indicator: int | None = None) -> RenderableType:
    """The human view of ``shangrao analyze``."""
    from ..tiles import from_34

    hand = from_34(a.tiles_34)
    head = Table.grid(padding=(0, 2))
    head.add_column(style="bold", no_wrap=True)
    head.add_column(overflow="fold")  # wrap long hands, never crop them (CJK widths)
    head.add_row(f"手牌 hand ({len(hand)})", tiles_text(hand, a.bao))
    if a.bao is None:
        head.add_row("宝 bao", Text("none", style="dim"))
    else:
        bao = Text(f"{tile_name(a.bao)} ({format_tile(a.bao)})", style=BAO_STYLE)
        if indicator is not None:
            bao.append(f"   indicator 指示牌 {tile_name(indicator)} ({format_tile(indicator)})", style="")
        head.add_row("宝 bao", bao)
    head.add_row("副露 melds", melds_text(a.melds))
    parts: list[RenderableType] = [head]
    complete = len(hand) + 3 * len(a.melds) == 14
    if complete:
        verdict = Text("yes 糊" if a.winning else "no 不糊", style="bold green" if a.winning else "bold red")
        if a.winning:
            verdict.append(f"  ({len(a.readings)} reading{'s' if len(a.readings) != 1 else ''})", style="")
        parts.append(Text.assemble(("糊牌 winning  ", "bold"), verdict))
        if a.readings:
            t = Table(show_edge=False, pad_edge=False, box=None, padding=(0, 2))
            t.add_column("#", justify="right", overflow="fold")
            t.add_column("form 牌型", overflow="fold")
            t.add_column("groups (* = 宝)", overflow="fold")
            t.add_column("宝 stands for", overflow="fold")
            for i, r in enumerate(a.readings, 1):
                form = FORM_NAMES[r.form]
                extra = []
                if r.form is Form.SEVEN_PAIRS and r.quads:
                    extra.append(f"豪华 n={r.quads}")
                if r.qixing:
                    extra.append("七星")
                if r.form is Form.STANDARD and r.all_pungs:
                    extra.append("碰碰")
                if extra:
                    form += " (" + ", ".join(extra) + ")"
                t.add_row(str(i), form, reading_text(r), substitution_text(r))
            parts.append(t)
    else:
        if a.baodiao:
            # from the 宝吊 state every drawn tile wins: one line, not a 34-row table
            parts.append(Text.assemble(("听牌 waits  ", "bold"), ANY_TILE_BAODIAO))
        elif a.waits:
            t = Table(show_edge=False, pad_edge=False, box=None, padding=(0, 2))
            t.add_column("wait 听", overflow="fold")
            t.add_column("name", overflow="fold")
            t.add_column("completes", overflow="fold")
            for k, forms in a.waits.items():
                name = tile_name(k) + ("(宝)" if k == a.bao else "")
                t.add_row(format_tile(k), name, ", ".join(FORM_NAMES[f] for f in forms))
            n = len(a.waits)
            parts.append(Text(f"听牌 waits ({n} {'kind' if n == 1 else 'kinds'})", style="bold"))
            parts.append(t)
        else:
            parts.append(Text.assemble(("听牌 waits  ", "bold"), ("none", "dim")))
        if a.baodiao:
            parts.append(
                Text.assemble(("宝吊头 state  ", "bold"), "yes: one 宝 waits as the pair's half; any draw wins")
            )
    parts.append(Text.assemble(("向听 shanten  ", "bold"), shanten_text(a.shanten)))
    per_form = ", ".join(f"{f.value} {s}" for f, s in a.form_shanten.items() if s < 90)
    if per_form:
        parts.append(Text(f"  per form: {per_form}", style="dim"))
    return RichGroup(*parts)


def render_score(
    result: ScoreResult, situation: WinSituation | None = None, payer_names: Sequence[str] = PAYER_NAMES
) -> RenderableType:
    """The itemized settlement of one win, in Chinese with English glosses."""
    parts: list[RenderableType] = []
    if situation is not None:
        head = Table.grid(padding=(0, 2))
        head.add_column(style="bold", no_wrap=True)
        head.add_column(overflow="fold")  # wrap long hands, never crop them (CJK widths)
        head.add_row("手牌 hand", tiles_text(situation.hand, situation.bao))
        win = Text(tile_name(situation.win_tile) + f" ({format_tile(situation.win_tile)})")
        win.append(f"   {situation.win_by.chinese} {situation.win_by.english}", style="dim")
        head.add_row("糊的牌 win tile", win)
        head.add_row("副露 melds", melds_text(situation.melds))
        head.add_row(
            "宝 bao",
            Text("none", style="dim")
            if situation.bao is None
            else Text(f"{tile_name(situation.bao)} ({format_tile(situation.bao)})", style=BAO_STYLE),
        )
        parts.append(head)
    if not result.winning or result.pattern is None:
        parts.append(Text("不糊 not a win: nothing is paid", style="bold red"))
        return RichGroup(*parts)
    p = result.pattern
    items = Table(show_edge=False, show_header=False, box=None, padding=(0, 2), pad_edge=False)
    items.add_column("item 名目", overflow="fold")
    items.add_column("", justify="right", overflow="fold")
    items.add_column("clause", style="dim", overflow="fold")
    if p.flat:
        items.add_row(Text(f"牌型 {p.name}", style="bold"), f"{p.factor} 分 flat", seed_clause(p.clause))
    else:
        items.add_row(Text(f"牌型 {p.name}", style="bold"), f"×{p.factor}", seed_clause(p.clause))
        for d in result.doublings:
            count = "" if d.count == 1 else f" ×{d.count}次"
            items.add_row(f"加倍 {d.name}{count}", f"×{d.factor}", "注 2" if d.id != "qianggang" else "计分方法 (2)")
    items.add_row(Text("手牌分 hand value", style="bold"), Text(str(result.hand_value), style="bold"), "")
    for b in result.bonuses:
        items.add_row(f"奖励分 {b.name} ×{b.count}", f"+{b.points} from each payer", "奖励分")
    if result.reading is not None:
        parts.append(
            Text.assemble(
                ("读法 reading  ", "bold"), reading_text(result.reading), "   ", substitution_text(result.reading)
            )
        )
    parts.append(items)
    pay = Table(show_edge=False, box=None, padding=(0, 2), pad_edge=False)
    pay.add_column("payer 付分", overflow="fold")
    pay.add_column("飞宝 factor", justify="right", overflow="fold")
    pay.add_column("win 糊", justify="right", overflow="fold")
    pay.add_column("bonus 奖励", justify="right", overflow="fold")
    pay.add_column("pays 付", justify="right", overflow="fold")
    for i in range(3):
        pay.add_row(
            payer_names[i],
            f"×{result.payer_factors[i]}",
            str(result.win_payments[i]),
            str(result.bonus_payments[i]),
            Text(str(result.payments[i]), style="bold"),
        )
    parts.append(pay)
    parts.append(Text.assemble(("合计 total  ", "bold"), (f"+{result.total}", "bold green"), " to the winner"))
    parts.append(Text.assemble(("算式 formula  ", "bold"), result.breakdown()))
    if result.alternatives:
        alt = ", ".join(f"{n} {v}" for n, v in result.alternatives)
        parts.append(Text(f"also fits (pays less): {alt}", style="dim"))
    return RichGroup(*parts)
