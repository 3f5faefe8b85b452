// The 规则 page (Chinese; English with the language switch), from docs/rules.md, with tile pictures.
"use strict";
document.getElementById("nav").append(navBar("rules"));
const T = (k) => tileImg(kindOf(k), {});
const B = (k) => tileImg(kindOf(k), { bao: kindOf(k) });
const TEXT = {
  zh: {
    h: "上饶麻将规则（简明）",
    bao_h: "宝与翻牌", bao: ["开局由庄家掷骰，从牌墙末端数到的那张牌翻开（翻牌），它的下一张就是宝，四张都是宝。例如翻牌", "，宝就是", "。宝在手牌中可以当任何一张牌用；吃、碰、杠出去的宝只是它本身的牌面。翻牌那一张不再使用。风牌按东→南→西→北→东循环，中→发→白→中循环。"],
    win_h: "只能自摸糊", win: "上饶麻将只能自摸糊牌（包括杠开）。例外只有两种：地糊（闲家糊庄家打出的第一张牌）和抢杠（别人碰杠时正好糊那张牌）。所以别人打出你要的牌时没有“糊”按钮——这不是故障。",
    touji_h: "偷机", touji: "能糊的时候可以不糊，继续打牌（点“过（偷机）”或直接出牌），等更大的牌型。",
    fei_h: "飞宝", fei: "把宝打出去叫飞宝：糊牌者每飞一个宝，牌值 ×2；付分者每飞一个宝，他付的分 ×2（天糊、地糊和从未摸到宝的糊牌除外）。",
    jie_h: "接宝与四个宝", jie: "摸到三个宝后，别人打出第四个宝时可以接宝（每家付 10 分）；自己摸到第四个宝，四个宝奖励每家 10 分。碰杠每家 1 分，自摸杠每家 2 分。",
    pat_h: "牌型与倍数", pat: "牌值 = 基本分 × 牌型倍数 × 各项翻倍（杠开、单吊、飞宝、九幺每次 ×2，抢杠 ×6）。",
    name: "牌型", factor: "倍数", clause: "条款", dbl_h: "翻倍",
    away_h: "离开牌桌", away: "和朋友同桌时，你离开后由机器人代打。如果桌上只有你一个真人（其余都是机器人），你离开后牌桌暂停：机器人不出牌，倒计时停止；你回来后从原来的位置接着打。",
  },
  en: {
    h: "Shangrao Mahjong rules (short)",
    bao_h: "宝 (bao) and the indicator", bao: ["The dealer rolls two dice; counting from the tail of the wall that tile is turned up (the indicator). The next kind is the 宝, all four copies. Indicator", "gives 宝", ". A 宝 in the concealed hand stands for any tile; in a declared meld it is just its face. The indicator tile is out of play. Winds cycle East→South→West→North, dragons 中→发→白."],
    win_h: "Wins by self-draw only", win: "You win only on a tile you draw yourself (a kong replacement too: 杠开). Two exceptions: 地糊 (a non-dealer wins on the dealer's first discard) and 抢杠 (robbing a kong). So when someone discards your winning tile there is no Win button: that is the rule, not a bug.",
    touji_h: "偷机 (declining a win)", touji: "You may decline a win and play on (Pass (偷机), or simply discard) to go for a bigger hand.",
    fei_h: "飞宝 (discarding a 宝)", fei: "Each 宝 the winner discarded doubles the hand value; each 宝 a payer discarded doubles what that payer pays (not for 天糊/地糊, nor when the winner never held a 宝).",
    jie_h: "接宝 and 四个宝", jie: "With three 宝 drawn you may catch the fourth when it is discarded (接宝, 10 from each player); drawing the fourth yourself is 四个宝 (10 from each). A kong on a discard or added kong pays 1 from each, a concealed kong 2.",
    pat_h: "Patterns and factors", pat: "Hand value = base points × pattern factor × doublings (杠开, 单吊, 飞宝, 九幺 ×2 each; 抢杠 ×6).",
    name: "Pattern", factor: "Factor", clause: "Clause", dbl_h: "Doublings",
    away_h: "Leaving the table", away: "At a table with other people, a bot plays your seat once you have left. If you are the only person at the table (every other seat a bot), the table pauses when you leave: the bots do not play and the countdowns stop; when you are back it goes on from the same position.",
  },
};
const X = TEXT[LANG] || TEXT.zh;
const body = document.getElementById("rules-body");
body.append(el("h1", { text: X.h }),
  el("h2", { text: X.bao_h }), el("p", {}, X.bao[0], " ", T("7z"), " ", X.bao[1], " ", B("6z"), "，", T("9m"), " → ", B("1m"), X.bao[2]),
  el("h2", { text: X.win_h }), el("p", { id: "self-draw-only", text: X.win }),
  el("h2", { text: X.touji_h }), el("p", { text: X.touji }),
  el("h2", { text: X.fei_h }), el("p", {}, B("5p"), " ", X.fei),
  el("h2", { text: X.jie_h }), el("p", {}, B("5p"), B("5p"), B("5p"), B("5p"), " ", X.jie),
  el("h2", { text: X.away_h }), el("p", { id: "away-rule", text: X.away }),
  el("h2", { text: X.pat_h }), el("p", { text: X.pat }));
fetch("/api/patterns").then(r => r.json()).then(d => {
  const tb = el("table", { id: "patterns" }, el("tr", {}, el("th", { text: X.name }), el("th", { text: X.factor }), el("th", { text: X.clause })));
  for (const p of d.patterns) tb.append(el("tr", {}, el("td", { text: p.name }), el("td", { text: p.flat ? `${p.factor}` : `×${p.factor}${p.per_quad ? "·2ⁿ" : ""}` }), el("td", { text: p.clause })));
  body.append(tb, el("h2", { text: X.dbl_h }), el("p", { text: Object.values(d.doublings).join("、") }));
});
