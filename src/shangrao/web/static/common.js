// Shared helpers: language (Chinese by default, English by a switch), tiles, formatting.
"use strict";
const I18N = {
  zh: {
    title: "上饶麻将", lobby: "大厅", history: "对局记录", lang: "English", create: "开桌",
    name: "桌名", hands: "局数", seat: "座位", human: "玩家",
    rules: "规则选项", open_tables: "可加入的桌", live_tables: "进行中的桌", join: "加入", none: "暂无",
    bao: "宝", indicator: "翻牌", tiles_left: "余牌", dealer: "庄", score: "分", you: "你",
    hand: "第{0}/{1}局", waits: "听牌", unseen: "剩{0}张", countdown: "倒计时", your_turn: "轮到你",
    waiting_for: "等待 {0}", settlement: "结算", drawn: "荒牌", winner: "糊牌", pattern: "牌型",
    doublings: "翻倍", bonuses: "奖励分", transfers: "付分明细", payer: "付", payee: "收", points: "分",
    total: "本局", next: "继续", invite: "邀请链接（发给朋友）", waiting_players: "等待玩家加入",
    fill_bots: "空位由机器人补上", connected: "在线", offline: "离线", standin: "机器人代打",
    touji: "偷机", log: "记录", match_over: "终局", replay: "回放",
    game: "对局", date: "时间", players: "玩家", status: "状态", finished: "已结束", unfinished: "未结束",
    prev: "上一步", nextstep: "下一步", play: "播放", hand_label: "局", discard_hint: "点手牌出牌",
    waiting: "等待", playing: "进行中", between: "局间", melds: "副露", discards: "牌河",
    seat_names: ["东", "南", "西", "北"], doubling: "×{0}", rules_names: {},
    bot_name: "{0}机器人", rules_page: "规则", back_seat: "回到我的座位",
    waiting_claims: "等待吃碰杠…", claim_prompt: "{0} 打出 {1}：要吗？", rob_prompt: "{0} 杠 {1}：抢杠吗？",
    your_discard: "请出牌（点两下出牌）", tap_again: "再点一下打出", no_win_note: "上饶麻将只能自摸糊牌（{0}、{1}除外），别人打出的牌不能糊。",
    from_seat: "抢自 {0}", win_tile: "糊的牌", stands_for: "宝当{0}", all_hands: "倒牌", ranking: "排名",
    per_hand: "每局得分", new_match: "原班人马再来一场", back_lobby: "回到大厅", hand_no: "局", running: "累计",
    delta: "本局得失", hand_value: "牌值", payments: "付分", clause: "条款", left: "余", turn_of: "{0} 出牌",
    seats_kept: "你的座位", rejoin_hint: "关掉的牌桌可以从这里回去", reveal_drawn: "荒牌：亮出所有手牌",
    next_in: "下一局", new_match_link: "新的一场已开：", bots: "机器人",
    human_s: "玩家", hint: "提示", allow_hints: "允许提示",
    flown_pays: "{0}打出过{1}张宝（{3}），付分×{2}",
    flown_not_held: "{0}打出过{1}张宝（{2}），但糊牌的人这局从没拿到过宝：不加倍（注 1）",
    flown_flat: "{0}打出过{1}张宝（{2}），但{3}按固定分付：不加倍（注 1）",
    touji_note: "偷机：也可以先不糊，按「{0}」接着摸牌，等更大的糊（如{1}）", kind_web: "网页对局", kind_play: "终端对局",
    kind_simulate: "机器人模拟", kind_arena: "擂台", no_game: "没有第{0}号对局", cannot_read: "对局记录暂时读不到，请稍后再试",
    back_history: "回到对局记录", error_word: "出错了",
    review: "复盘", review_title: "复盘（牌谱分析）", reviewing: "复盘中 {0}/{1} 局…", review_failed: "分析没有成功：{0}", review_busy: "服务器正在复盘别的对局，稍后再试…",
    match_rate: "一致率", loss_hand: "每局损失", mistakes: "失误（>0.5分）", big_mistakes: "大错（>2分）",
    prev_mistake: "上一个失误", next_mistake: "下一个失误", big_only: "只看大错", loss: "损失", chosen: "实际选择", more_options: "另有{0}项",
    best_choice: "最好", not_decision: "这一步不是{0}的选择", no_mistakes: "没有失误", review_of: "看谁",
    review_note: "数值：从这一步起本局的期望得分（专家评估）", review_game: "复盘这场", reviewing_s: "复盘中 {0}/{1}",
    too_many_tables: "开桌太频繁了，请一分钟后再试", server_busy: "服务器现在太忙或记录库写不了，请稍后再试",
    bad_input: "填写有误：{0}", failed: "没有成功（{0}），请稍后再试",
    records_problem: "记录库出了问题，请告诉管理员（最近的对局可能没有存好）：{0}",
  },
  en: {
    title: "Shangrao Mahjong", lobby: "Lobby", history: "History", lang: "中文", create: "Create table",
    name: "Table name", hands: "Hands", seat: "Seat", human: "Player",
    rules: "Rule options", open_tables: "Open tables", live_tables: "Tables in play", join: "Join", none: "None",
    bao: "Bao", indicator: "Indicator", tiles_left: "Tiles left", dealer: "Dealer", score: "Score", you: "You",
    hand: "Hand {0}/{1}", waits: "Waits", unseen: "{0} unseen", countdown: "Countdown", your_turn: "Your turn",
    waiting_for: "Waiting for {0}", settlement: "Settlement", drawn: "Drawn hand (荒牌)", winner: "Winner",
    pattern: "Pattern", doublings: "Doublings", bonuses: "Bonuses", transfers: "Payments", payer: "Payer",
    payee: "Payee", points: "Points", total: "This hand", next: "Continue",
    invite: "Invite link (send to a friend)", waiting_players: "Waiting for players",
    fill_bots: "Fill empty seats with bots", connected: "online", offline: "offline", standin: "bot plays",
    touji: "decline win (偷机)", log: "Log", match_over: "Match over", replay: "Replay", game: "Game", date: "Date", players: "Players",
    status: "Status", finished: "finished", unfinished: "unfinished", prev: "Back", nextstep: "Step",
    play: "Play", hand_label: "Hand", discard_hint: "click a tile to discard", waiting: "waiting",
    playing: "playing", between: "between hands", melds: "Melds", discards: "Discards",
    seat_names: ["East", "South", "West", "North"], doubling: "×{0}", rules_names: {},
    bot_name: "{0} bot", rules_page: "Rules", back_seat: "Back to my seat",
    waiting_claims: "Waiting for claims…", claim_prompt: "{0} discards {1}: claim it?", rob_prompt: "{0} konged {1}: rob the kong?",
    your_discard: "Your discard (tap a tile twice)", tap_again: "tap again to discard", no_win_note: "Shangrao wins are self-drawn only (except {0} and {1}): you cannot win on another player's discard.",
    from_seat: "robbed from {0}", win_tile: "win tile", stands_for: "宝 as {0}", all_hands: "Hands laid down", ranking: "Ranking",
    per_hand: "Points per hand", new_match: "New match, same players", back_lobby: "Back to lobby", hand_no: "Hand", running: "Total",
    delta: "This hand", hand_value: "Hand value", payments: "Payments", clause: "Clause", left: "left", turn_of: "{0} to play",
    seats_kept: "Your seats", rejoin_hint: "tables you closed can be reopened here", reveal_drawn: "Drawn hand: all hands shown",
    next_in: "Next hand", new_match_link: "A new match is open: ", bots: "bots",
    human_s: "player", hint: "Hint", allow_hints: "Allow hints (the expert's advice)",
    flown_pays: "{0} discarded {1} 宝 ({3}): pays ×{2}",
    flown_not_held: "{0} discarded {1} 宝 ({2}), but the winner never held a 宝 this hand: not doubled (注 1)",
    flown_flat: "{0} discarded {1} 宝 ({2}), but {3} is paid flat: not doubled (注 1)",
    touji_note: "偷机: you may decline this win — press \u201c{0}\u201d and play on for a bigger one (e.g. {1})", kind_web: "web", kind_play: "terminal",
    kind_simulate: "bot simulation", kind_arena: "arena", no_game: "There is no game #{0}", cannot_read: "The records cannot be read now; try again later",
    back_history: "Back to the history", error_word: "Error",
    review: "Review", review_title: "Review (牌谱分析)", reviewing: "Reviewing hand {0}/{1}…", review_failed: "The review failed: {0}", review_busy: "The server is reviewing other games; trying again shortly…",
    match_rate: "Match", loss_hand: "Lost a hand", mistakes: "Mistakes (>0.5)", big_mistakes: "Big (>2)",
    prev_mistake: "Previous mistake", next_mistake: "Next mistake", big_only: "Big mistakes only", loss: "Loss", chosen: "chosen", more_options: "{0} more options",
    best_choice: "best", not_decision: "Not a choice of {0} here", no_mistakes: "No mistakes", review_of: "Seat",
    review_note: "Values: expected points of the hand from this decision (the expert's estimate)", review_game: "Review this game", reviewing_s: "Reviewing {0}/{1}",
    too_many_tables: "Too many new tables from here: try again in a minute", server_busy: "The server is busy or cannot store games now; try again later",
    bad_input: "Please check: {0}", failed: "That did not work ({0}); try again later",
    records_problem: "The records database has a problem; please tell the operator (recent games may not be stored): {0}",
  },
};
let LANG = localStorage.getItem("shangrao-lang") || "zh";
// Words that have a home on the server (shangrao.labels.labels_table: actions, win ways, patterns,
// doublings, bonuses, bots) are never copied here: the server embeds the table in every page as
// <script id="labels" type="application/json"> and the I18N entries below are built from it.
const LABELS = JSON.parse(document.getElementById("labels").textContent);
function label(section, id, lang = LANG) { const x = (LABELS[section] || {})[id]; return x ? (x[lang] ?? x.zh) : id; }
function cap(s) { return s.charAt(0).toUpperCase() + s.slice(1); }
// a pattern, doubling or bonus by its id: the Chinese name, or in English its English name with the
// Chinese beside ("Seven pairs, no 宝 acting (清七对)"); ``zh``: the name the server sent, if the id is unknown
function itemName(section, id, zh) {
  const x = (LABELS[section] || {})[id];
  if (!x) return zh ?? id;
  return LANG === "zh" ? x.zh : `${cap(x.en)} (${x.zh})`;
}
// a label's colon and a list's comma: full-width in Chinese, half-width in English
function colon() { return LANG === "zh" ? "：" : ": "; }
function listSep() { return LANG === "zh" ? "，" : ", "; }
(() => {
  // I18N key -> [section, id, English shows the Chinese name too]
  const named = { self_draw: ["win_by", "self_draw", true], robbing_kong: ["win_by", "robbing_kong", true],
    dealer_first_discard: ["win_by", "dealer_first_discard", true], heavenly: ["patterns", "heavenly", true],
    gangkai: ["doublings", "gangkai", true], flown: ["doublings", "feibao", false], four_bao: ["bonuses", "four_bao", false] };
  for (const [lang, d] of Object.entries(I18N)) {
    const word = (sec, id, both) => lang === "zh" ? label(sec, id, "zh") : cap(label(sec, id, "en")) + (both ? ` (${label(sec, id, "zh")})` : "");
    for (const id of Object.keys(LABELS.actions)) d[id] = word("actions", id, false);
    for (const [k, [sec, id, both]] of Object.entries(named)) d[k] = word(sec, id, both);
    for (const id of Object.keys(LABELS.bots)) { d[id + "_s"] = label("bots", id, lang); d[id] = d.bot_name.replace("{0}", lang === "zh" ? d[id + "_s"] : cap(id)); }
  }
})();
function t(key, ...args) {
  let s = (I18N[LANG] && I18N[LANG][key]) ?? I18N.zh[key] ?? key;
  if (typeof s === "string") args.forEach((a, i) => { s = s.replace(`{${i}}`, a); });
  return s;
}
function toggleLang() { LANG = LANG === "zh" ? "en" : "zh"; localStorage.setItem("shangrao-lang", LANG); location.reload(); }
function tileCode(k) { return k < 27 ? `${(k % 9) + 1}${"mps"[Math.floor(k / 9)]}` : `${k - 26}z`; }
const ZH_NUM = "一二三四五六七八九";
const HONORS = ["东", "南", "西", "北", "白", "发", "中"];
function tileName(k) {
  if (k >= 27) return HONORS[k - 27];
  return ZH_NUM[k % 9] + ["万", "筒", "条"][Math.floor(k / 9)];
}
function tileLabel(k) { return LANG === "zh" ? tileName(k) : tileCode(k); }
function kindOf(code) { // "5m" -> 4
  const n = parseInt(code[0], 10), s = code[1];
  return s === "z" ? 26 + n : "mps".indexOf(s) * 9 + n - 1;
}
function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v; else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of kids.flat()) if (c !== null && c !== undefined) e.append(c);
  return e;
}
function tileImg(k, opts = {}) {
  const cls = ["tile"];
  if (opts.small) cls.push("small");
  if (opts.last) cls.push("last");
  if (opts.cls) cls.push(opts.cls);
  const img = el("img", { src: `/static/tiles/${tileCode(k)}.svg`, alt: tileName(k), title: tileLabel(k), draggable: "false" });
  const box = el("span", { class: cls.join(" "), "data-kind": k }, img);
  if (opts.bao !== undefined && k === opts.bao) { box.classList.add("bao"); box.append(el("img", { class: "bao-badge", src: "/static/tiles/bao.svg", alt: "宝" })); }
  return box;
}
function backImg(small) { return el("span", { class: "tile back" + (small ? " small" : "") }, el("img", { src: "/static/tiles/back.svg", alt: "" })); }
function navBar(active) {
  return el("nav", { class: "top" },
    el("a", { href: "/", class: active === "lobby" ? "on" : "" }, t("title") + " · " + t("lobby")),
    el("a", { href: "/history", class: active === "history" ? "on" : "" }, t("history")),
    el("a", { href: "/rules", class: active === "rules" ? "on" : "", id: "rules-link" }, t("rules_page")),
    el("button", { class: "lang", id: "lang", onclick: toggleLang }, t("lang")));
}
// seat links kept in this browser, so a closed tab can get its seat back
function savedSeats() { try { return JSON.parse(localStorage.getItem("shangrao-seats") || "[]"); } catch (e) { return []; } }
function saveSeat(id, token, name) {
  const all = savedSeats().filter(x => !(String(x.id) === String(id)));
  all.unshift({ id: Number(id), token, name: name || "", at: Date.now() });
  localStorage.setItem("shangrao-seats", JSON.stringify(all.slice(0, 20)));
}
function zhSeq(text) { // engine strings -> Chinese: "discard 4z" -> "打 北", "pung 6p" -> "碰 六筒", "win" -> "糊"
  const [type, arg] = text.split(" ");
  const name = t(type === "kong" ? "kong" : type);
  if (!arg) return name;
  if (type === "chow") { const suit = arg.slice(-1); return name + " " + arg.slice(0, -1).split("").map(d => tileLabel(kindOf(d + suit))).join(""); }
  return name + " " + tileLabel(kindOf(arg));
}
// a seat's player in words: "human" and the registry's bots by their words; an outside bot the
// operator offers (SHANGRAO_WEB_BOTS) by its label as written, never looked up as a UI word
function kindWord(kind, short = false) {
  const known = kind === "human" || kind in (LABELS.bots || {});
  if (known) return t(short ? kind + "_s" : kind);
  const text = String(kind);  // a label: up to 32 characters; a seat's chip shows 8
  return short && text.length > 8 ? text.slice(0, 8) + "…" : text;
}
function seatName(players, s, me) {
  const kind = players && players[s] ? (players[s].kind || players[s]) : "";
  // at a room's match, the name the member chose (issue 24), cut short to fit a seat's chip
  const name = players && players[s] && typeof players[s].name === "string" ? players[s].name : "";
  const who = s === me ? t("you") : name ? (name.length > 5 ? name.slice(0, 5) + "…" : name) : kindWord(kind, true);
  return LANG === "zh" ? `${s}号·${who}` : `${s}·${who}`;
}
function fmtPoints(x) { return (x > 0 ? "+" : "") + x; }
function meldTiles(m, bao) {
  const box = el("span", { class: "meld" });
  m.tiles.forEach((k, i) => {
    const concealed = m.kind === "concealed_kong" && (i === 0 || i === 3);
    box.append(concealed ? backImg(true) : tileImg(k, { small: true, bao }));
  });
  return box;
}
// 飞宝 (注 1): why a payer pays more, in words — "2号·贪心打出过1张宝（飞宝），付分×2"
// and why a payer's 飞宝 did not count (the winner never held a 宝; 天糊/地糊 are paid flat), as the CLI says
function flownWords(w, name) {
  const feibao = label("doublings", "feibao", "zh");
  const flat = `${itemName("patterns", "heavenly")}/${itemName("patterns", "earthly")}`;
  return (w.payer_factors || []).map((f, i) => {
    if (f > 1) return t("flown_pays", name(w.payers[i]), w.payers_flown[i], f, feibao);
    if (!w.flown_not_counted || !w.payers_flown[i]) return null;
    return t(w.flown_not_counted === "flat" ? "flown_flat" : "flown_not_held", name(w.payers[i]), w.payers_flown[i], feibao, flat);
  }).filter(x => x);
}
// A refused request in the page's language (never the server's raw JSON): 429, 503, 422 and the rest
function refusal(status, detail) {
  if (status === 429) return t("too_many_tables");
  if (status === 503) return t("server_busy");
  if (status === 422 && Array.isArray(detail)) return t("bad_input", detail.map(e => (e.loc || []).filter(x => x !== "body").join(".")).filter(x => x).join("，") || "?");
  if (status === 422 || status === 400 || status === 413 || status === 415) return t("bad_input", status);
  return t("failed", status);
}
function gameKind(kind) { return I18N[LANG]["kind_" + kind] ?? I18N.zh["kind_" + kind] ?? kind; }
// A page's own error in its language, with a way back (a bad link, a record that cannot be read).
function pageError(box, text, href = "/", back = "back_lobby") {
  box.replaceChildren(el("div", { class: "errpage card", "data-error": "page" }, el("h2", { text: t("error_word") }),
    el("p", { text }), el("a", { class: "button", href, text: t(back) })));
}
// a payment's item in a settlement ``s`` (hands.result): a win's pattern, or a bonus, by its id
function transferName(s, x) {
  if (x.reason !== "win") return itemName("bonuses", x.reason, x.name);
  const w = (s.wins || []).find(v => v.seat === x.payee);
  return itemName("patterns", w ? w.pattern_id : null, x.name);
}
// the replay's settlement: part of the page (the table's is an overlay), so the controls stay usable
function settlementView(s, players, me, wins = []) {
  const box = el("div", { class: "card-s replay-settlement", id: "settlement" }, el("h2", { text: t("settlement") }));
  if (s.drawn) box.append(el("p", { class: "drawn", text: t("drawn") }));
  for (const w of s.wins || []) {
    const win = el("div", { class: "win" });
    win.append(el("h3", { text: `${t("winner")}${colon()}${seatName(players, w.seat, me)} — ${itemName("patterns", w.pattern_id, w.pattern)} ×${w.factor}` }));
    if ((w.doublings || []).length) {
      win.append(el("p", { text: `${t("doublings")}${colon()}` + w.doublings.map(d => `${itemName("doublings", d.id, d.name)}${d.count > 1 ? "×" + d.count : ""} (×${d.factor})`).join(listSep()) }));
    }
    win.append(el("p", { class: "breakdown", text: w.breakdown }));
    win.append(el("p", { text: w.payers.map((p, i) => `${seatName(players, p, me)} ${t("payer")} ${w.win_payments[i]}`).join("；") }));
    const why = flownWords({ payers: w.payers, ...(wins.find(x => x.seat === w.seat) || {}) }, p => seatName(players, p, me));
    if (why.length) win.append(el("p", { class: "flown-why", text: why.join("；") }));
    box.append(win);
  }
  if ((s.bonuses || []).length) {
    box.append(el("p", { text: `${t("bonuses")}${colon()}` + s.bonuses.map(b => `${seatName(players, b.seat, me)} ${itemName("bonuses", b.reason, b.name)}`).join(listSep()) }));
  }
  const tb = el("table", { class: "transfers" }, el("tr", {}, el("th", { text: t("payer") }), el("th", { text: t("payee") }), el("th", { text: t("points") }), el("th", { text: t("clause") })));
  for (const x of s.transfers || []) tb.append(el("tr", {}, el("td", { text: seatName(players, x.payer, me) }), el("td", { text: seatName(players, x.payee, me) }), el("td", { text: x.points }), el("td", { text: transferName(s, x) })));
  box.append(el("h3", { text: t("transfers") }), tb);
  const dl = el("table", { class: "deltas" });
  dl.append(el("tr", {}, el("th", { text: "" }), ...[0, 1, 2, 3].map(i => el("th", { text: seatName(players, i, me) }))));
  dl.append(el("tr", {}, el("th", { text: t("delta") }), ...s.deltas.map(d => el("td", { text: fmtPoints(d), class: d > 0 ? "plus" : d < 0 ? "minus" : "" }))));
  dl.append(el("tr", {}, el("th", { text: t("running") }), ...s.scores.map(d => el("td", { text: d }))));
  box.append(el("h3", { text: t("total") }), dl);
  return box;
}
