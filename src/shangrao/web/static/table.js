// @ts-check  (the messages' types: ./messages.js, generated from docs/web-messages.schema.json)
// The table: one WebSocket per seat link; the server sends this seat's whole view after every change.
// Layout: a square table — opponents on the top/left/right edges with their melds, every seat's
// 牌河 around the centre (宝/翻牌, tiles left, dealer, who is to play), your hand along the bottom.
"use strict";
const parts = location.pathname.split("/"); // /t/{id}/{token}, or /watch/{id} (a spectator: only what is public)
const WATCH = parts[1] === "watch";
const TABLE_ID = parts[2], TOKEN = WATCH ? "" : parts[3];
const M = (id) => label("manners", id); // the table manners' words (托管, 解散 …: shangrao/game/manners.py)
// 快捷语 bubbles per seat ({text, until}); the quick-phrase menu (open or not)
const bubbles = {};
let phrasesOpen = false;
let S = null, ws = null, tick = null, deadlineAt = null, lastError = "", selected = null, selectedPos = -1, savedName = null;
// 提示: the expert's top choices for this decision (null: not shown); asked with the state's (hand, seq)
let hint = null, hintNote = null, hintPending = false;
document.getElementById("nav").append(navBar("table"));

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(WATCH ? `${proto}://${location.host}/ws/watch/${TABLE_ID}` : `${proto}://${location.host}/ws/${TABLE_ID}/${TOKEN}`);
  ws.onmessage = (e) => {
    /** @type {import("./messages.js").OutgoingMessage} */
    const m = JSON.parse(e.data);
    if (m.type === "watch") { // a spectator's public state: seat 0 at the bottom, its hand face down
      Object.assign(m, { type: "state", you: 0, legal: [], can_win: false, deadline: null, waits: null, discard_waits: null, seq: m.log.length });
      if (m.view) Object.assign(m.view, { hand: [], drawn: null, seat: 0 });
    }
    if (m.type === "phrase") {
      bubbles[m.seat] = { text: label("phrases", m.phrase), until: Date.now() + 3000 };
      if (S) { render(); setTimeout(() => { if (S) render(); }, 3100); }
      return;
    }
    if (m.type === "state" && m.table.end_reason) Object.assign(m, { legal: [], deadline: null, discard_waits: null }); // 解散: nothing more to do
    if (m.type === "state") {
      if (!S || S.seq !== m.seq || S.hand_no !== m.hand_no) { selected = null; hint = null; hintPending = false; }
      S = m; lastError = ""; deadlineAt = m.deadline == null ? null : Date.now() + m.deadline * 1000;
      if (!WATCH && savedName !== m.table.name) { saveSeat(TABLE_ID, TOKEN, m.table.name); savedName = m.table.name; }
      render();
    } else if (m.type === "hint") {
      if (!S || m.hand !== S.hand_no || m.seq !== S.seq || !hintPending) return; // an answer to an earlier state
      hint = m.choices; hintNote = m.note || null; hintPending = false; render();
    } else if (m.type === "error" || m.type === "notice") {
      if (m.code === "forbidden") { location.href = WATCH ? "/error/no-table" : "/error/bad-link"; return; }
      if (m.code === "damaged") { location.href = "/error/damaged?table=" + TABLE_ID; return; } // what is wrong, and what the operator can do
      if (hintPending && m.type === "error") { hintPending = false; render(); }
      lastError = m.message; renderError();
    }
  };
  ws.onclose = () => { setTimeout(connect, 1000); };
}
function send(obj) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(obj)); }
function act(a) { selected = null; hint = null; send({ type: "action", action: a, seq: S.seq, hand: S.hand_no }); }
function askHint() {
  if (hint || hintPending) { hint = null; hintPending = false; render(); return; } // pressed again: hide it
  hintPending = true; render();
  send({ type: "hint", hand: S.hand_no, seq: S.seq });
}
// the hint over the lower edge of the table (never in the flow: the hand and buttons do not move); a tap hides it
function hintBox() {
  const box = el("div", { class: "hint-box", id: "hint", onclick: () => { hint = null; render(); } },
    el("b", { text: `${t("hint")} · ${label("bots", "expert")}` }));
  box.append(el("ol", {}, ...hint.map(c => el("li", { "data-choice": c.action, text: LANG === "zh" ? c.zh : c.en }))));
  if (hintNote) box.append(el("small", { class: "hint-note", text: LANG === "zh" ? hintNote.zh : hintNote.en }));
  return box;
}

function actionLabel(a) {
  if (a.type === "pass") return a.declines_win ? `${t("pass")}（${t("touji")}）` : t("pass");
  return t(a.type);
}
function renderError() { const box = document.getElementById("error"); if (box) box.textContent = lastError; }
function who(s) { return seatName(S.table.players, s, WATCH ? -1 : S.you); } // a spectator is no seat: no "你"

function seatChip(s) {
  const v = S.view, p = S.table.players[s];
  const chip = el("div", { class: "chip" + (v.current_seat === s ? " current" : ""), "data-seat": s },
    el("span", { class: "wind" + (s === v.dealer ? " dealer" : ""), text: v.winds[s], title: s === v.dealer ? t("dealer") : "" }),
    el("span", { class: "who", text: who(s) }),
    el("span", { class: "score", text: v.scores[s] }));
  if (p.kind === "human" && s !== S.you) chip.append(el("span", { class: "dot " + (p.standin ? "standin" : p.connected ? "on" : "off"), title: p.standin ? t("standin") : (p.connected ? t("connected") : t("offline")) }));
  if (v.flown[s]) chip.append(el("span", { class: "badge flown", text: `${t("flown")}×${v.flown[s]}` }));
  if (p.managed) chip.append(el("span", { class: "badge managed", "data-managed": s, text: M("managed") }));
  const b = bubbles[s];
  if (b && b.until > Date.now()) chip.append(el("span", { class: "bubble", "data-bubble": s, text: b.text }));
  return chip;
}
function meldsOf(s) { return el("div", { class: "melds" }, ...S.view.melds[s].map(m => meldTiles(m, S.view.bao))); }
function opponent(s, pos) {
  const v = S.view;
  const box = el("section", { class: `opp ${pos}`, "data-seat": s }, seatChip(s), meldsOf(s));
  box.append(el("div", { class: "hidden-hand" }, ...Array.from({ length: v.hand_sizes[s] }, () => backImg(true))));
  return box;
}
function pond(s, pos) {
  const v = S.view, last = v.last_discard;
  const box = el("div", { class: `pond p-${pos}`, "data-seat": s });
  v.discards[s].forEach((k, i) => box.append(tileImg(k, { small: true, bao: v.bao, last: last && last[0] === s && i === v.discards[s].length - 1 })));
  return box;
}
function centre() {
  const v = S.view, me = S.you;
  const c = el("div", { class: "centre" });
  c.append(el("div", { class: "bao-box" }, el("span", { class: "lbl", text: t("indicator") }), tileImg(v.indicator, { small: true }),
    el("span", { class: "lbl", text: t("bao") }), tileImg(v.bao, { small: true, bao: v.bao })));
  c.append(el("div", { id: "tiles-left", class: "left", text: `${t("tiles_left")} ${v.tiles_left}` }));
  let msg;
  if (v.phase === "over") msg = t("settlement");
  else if (v.phase === "claim" || v.phase === "rob") msg = S.legal.length ? "" : t("waiting_claims");
  else if (v.current_seat === me && !WATCH) msg = t("your_turn");  // a spectator is told whose turn, never 轮到你
  else msg = t("turn_of", who(v.current_seat));
  c.append(el("div", { class: "turn", id: "turn", text: msg }), el("div", { id: "countdown", class: "countdown" }));
  const last = lastAction();
  if (last) c.append(el("div", { class: "last-action", id: "last-action", text: last }));
  return c;
}
// the newest public event of the redacted log, in the UI language ("2号 碰 六筒", "1号 打 北")
function lastAction() {
  const k = (code) => tileLabel(kindOf(code));
  for (let i = S.log.length - 1; i >= 0; i--) {
    const ev = S.log[i];
    switch (ev.type) {
      case "discard": return `${who(ev.seat)} ${t("discard")} ${k(ev.kind)}`;
      case "chow": case "pung": case "kong": return `${who(ev.seat)} ${t(ev.type)} ${meldLabel(ev.meld)}`;
      case "concealed_kong": case "added_kong": return `${who(ev.seat)} ${t(ev.type)} ${k(ev.kind)}`;
      case "catch_bao": return `${who(ev.seat)} ${t("catch_bao")}`;
      case "four_bao": return `${who(ev.seat)} ${t("four_bao")}`;
      case "win": return `${who(ev.seat)} ${t("win")}`;
      case "deal": return `${t("dealer")} ${who(ev.dealer)}`;
      default: continue;
    }
  }
  return "";
}
function meldLabel(text) { // "pung:666p" -> 六筒 (a pung/kong names its tile once; a chow its three)
  const body = (text.split(":")[1] || ""), suit = body.slice(-1), digits = body.slice(0, -1).split("");
  const kinds = digits.map(d => kindOf(d + suit));
  if (kinds.every(x => x === kinds[0])) return tileLabel(kinds[0]);
  return LANG === "zh" ? kinds.map(x => ZH_NUM[x % 9]).join("") + ["万", "筒", "条"][Math.floor(kinds[0] / 9)] : body;
}
function render() {
  const app = document.getElementById("app");
  app.replaceChildren();
  document.body.dataset.seq = `${S.hand_no}:${S.seq}`;
  const tb = S.table, v = S.view, me = S.you;
  document.body.dataset.status = tb.status;
  document.body.dataset.phase = v ? v.phase : "";
  const head = el("div", { class: "info" }, el("span", { class: "tname", text: tb.name }),
    el("span", { text: t("hand", Math.min(S.hand_no + 1, tb.hands_total), tb.hands_total) }));
  if (!WATCH) head.append(el("a", { class: "watch-link", id: "watch-link", href: `/watch/${tb.id}`, target: "_blank", text: M("watch_link") }));
  app.append(head);
  if (tb.status === "waiting" && !WATCH) {
    const link = `${location.origin}/join/${tb.id}`;
    app.append(el("div", { class: "waiting" }, el("h2", { text: t("waiting_players") }),
      el("p", {}, t("invite"), ": ", el("code", { id: "invite", text: link })),
      el("button", { onclick: () => send({ type: "fill_bots" }), text: t("fill_bots") })));
  }
  if (tb.paused) app.append(el("div", { class: "vote-box paused", id: "paused", role: "status", text: M("paused") })); // (issue 38)
  const vb = voteBox();
  if (vb) app.append(vb);
  if (!v) { if (S.settlement) app.append(settlement()); return; }
  const R = (me + 1) % 4, O = (me + 2) % 4, L = (me + 3) % 4;
  const square = el("div", { class: "square" }, pond(O, "top"), pond(L, "left"), centre(), pond(R, "right"), pond(me, "bottom"));
  const board = el("div", { class: "board" }, opponent(O, "top"), opponent(L, "left"), square, opponent(R, "right"));
  app.append(board, mySide());
  if (v.phase === "over" && (S.settlement || S.reveal)) {
    const st = settlement();
    app.append(st);
    // the settlement lies over your side: your 托管 / 快捷语 / 解散 move beside 继续, usable between hands
    const bar = app.querySelector("section.me #manners"), at = st.querySelector(".buttons");
    if (bar && at && bar.childElementCount) at.append(bar);
  } else if (tb.end_reason === "dissolved") app.append(dissolved());
  startTick();
}
// 托管 / 快捷语 / 解散: one tap each (a seat, not a spectator)
function mannersBar() {
  const tb = S.table, me = S.you, p = tb.players[me];
  const bar = el("div", { class: "manners", id: "manners" });
  if (tb.status === "finished" || tb.status === "waiting") return bar;
  const managed = p && p.managed;
  bar.append(el("button", { class: "manage" + (managed ? " on" : ""), id: "manage", text: managed ? M("take_back") : M("manage"), onclick: () => send({ type: "manage", on: !managed }) }));
  bar.append(el("button", { class: "phrases-btn", id: "phrases-btn", text: M("phrases"), onclick: () => { phrasesOpen = !phrasesOpen; render(); } }));
  if (!(tb.manners && tb.manners.vote)) bar.append(el("button", { class: "dissolve", id: "dissolve", text: M("dissolve"), onclick: () => send({ type: "dissolve" }) }));
  if (phrasesOpen) bar.append(el("div", { class: "phrase-box", id: "phrase-box" }, ...Object.keys(LABELS.phrases).map(id =>
    el("button", { "data-phrase": id, text: label("phrases", id), onclick: () => { phrasesOpen = false; send({ type: "phrase", phrase: id }); render(); } }))));
  return bar;
}
// an open 解散 vote: who asked, the answers so far, 同意/拒绝 for a seat still to answer, the seconds left
// a closed vote that failed is said to every seat and spectator for RESULT_MS (issue 38): 解散未通过
// with how many refused, or that its time ran out (a passed one ends the match: 本场已解散)
const RESULT_MS = 20000;
let resultSeen = { closed: 0, until: 0 };
function voteResult(mn) {
  if (!mn || mn.result !== "failed" || !mn.closed) return null;
  if (mn.closed > resultSeen.closed) {
    resultSeen = { closed: mn.closed, until: Date.now() + RESULT_MS };
    setTimeout(render, RESULT_MS + 50);
  }
  if (Date.now() >= resultSeen.until) return null;
  const text = mn.why === "refused" && mn.tally ? M("failed_refused").replace("{0}", mn.tally[1]) : mn.why === "timeout" ? M("failed_timeout") : M("dissolve_failed");
  return el("div", { class: "vote-box vote-result", id: "vote-result", role: "status", "data-why": mn.why || "", text });
}
function voteBox() {
  const mn = S.table.manners, vote = mn && mn.vote;
  if (!vote) return voteResult(mn);
  const agreed = Object.values(vote.answers).filter(x => x).length;
  const box = el("div", { class: "vote-box", id: "vote" }, el("b", { text: M("dissolve_asked").replace("{0}", who(vote.proposer)) }),
    el("span", { text: ` ${M("agree")} ${agreed}/${vote.voters.length} · ${Math.ceil(vote.left)}s` }));
  if (!WATCH && vote.voters.includes(S.you) && !(String(S.you) in vote.answers)) {
    box.append(el("button", { class: "act primary", id: "vote-agree", text: M("agree"), onclick: () => send({ type: "vote", agree: true }) }),
      el("button", { class: "act", id: "vote-refuse", text: M("refuse"), onclick: () => send({ type: "vote", agree: false }) }));
  }
  return box;
}
function dissolved() {
  const box = el("div", { class: "settlement", id: "settlement" });
  const card = el("div", { class: "card-s" }, el("h2", { id: "dissolved", text: M("dissolved") }));
  card.append(matchEnd());
  box.append(card);
  return box;
}
function watchSide() { // a spectator sees seat 0 as any other seat: its hand face down
  const v = S.view;
  return el("section", { class: "me watching", "data-seat": 0 },
    el("div", { class: "me-head" }, seatChip(0), meldsOf(0), el("span", { class: "badge spectator", id: "spectator", text: M("spectator") })),
    el("div", { class: "hidden-hand mine" }, ...Array.from({ length: v.hand_sizes[0] }, () => backImg(true))));
}
function mySide() {
  if (WATCH) return watchSide();
  const v = S.view, me = S.you, legal = S.legal || [];
  const discards = new Map(legal.filter(a => a.type === "discard").map(a => [a.tile, a]));
  const box = el("section", { class: "me", "data-seat": me });
  if (hint && hint.length) box.append(hintBox());
  const top = hint && hint.length && hint[0].action.startsWith("discard ") ? kindOf(hint[0].action.split(" ")[1]) : null;
  let marked = false;
  box.append(el("div", { class: "me-head" }, seatChip(me), meldsOf(me), mannersBar()));
  // prompt + buttons
  const bar = el("div", { class: "actions", id: "actions" });
  const ld = v.last_discard;
  if ((v.phase === "claim") && legal.length && ld) bar.append(el("span", { class: "prompt", text: t("claim_prompt", who(ld[0]), tileLabel(ld[1])) }));
  else if (v.phase === "rob" && legal.length && v.kong) bar.append(el("span", { class: "prompt", text: t("rob_prompt", who(v.kong[0]), tileLabel(v.kong[1])) }));
  else if (discards.size) bar.append(el("span", { class: "prompt", text: selected !== null ? t("tap_again") : t("your_discard") }));
  for (const a of legal) {
    if (a.type === "discard") continue;
    const b = el("button", { class: `act ${a.type}`, "data-action": a.action, onclick: () => act(a.action) }, el("span", { text: actionLabel(a) }));
    if (a.tiles) a.tiles.forEach(k => b.append(tileImg(k, { small: true, bao: v.bao })));
    else if (a.tile !== null && a.tile !== undefined) b.append(tileImg(a.tile, { small: true, bao: v.bao }));
    bar.append(b);
  }
  if (S.table.hints !== false && legal.length > 1)
    bar.append(el("button", { class: "hint-btn" + (hint ? " on" : ""), id: "hint-btn", disabled: hintPending, onclick: askHint, text: hintPending ? "…" : t("hint") }));
  if (v.phase === "claim" && ld && ld[0] !== me && S.waits && S.waits.some(w => w.kind === ld[1]))
    bar.append(el("span", { class: "note", id: "no-win-note", text: t("no_win_note", label("win_by", "dealer_first_discard"), label("win_by", "robbing_kong")) }));
  // 偷机 (issue 38): where the win may be declined, say so beside 糊
  const decline = legal.find(a => a.type === "pass" && a.declines_win);
  if (decline && legal.some(a => a.type === "win"))
    bar.append(el("span", { class: "note", id: "touji-note", text: t("touji_note", actionLabel(decline), label("patterns", "baodiao_bao", "zh")) }));
  box.append(bar);
  const tiles = el("div", { class: "hand", id: "hand" });
  const hand = [...v.hand];
  if (v.drawn !== null) { const i = hand.indexOf(v.drawn); if (i >= 0) hand.splice(i, 1); }
  let pos = 0;
  const addTile = (k, extra) => {
    const img = tileImg(k, { bao: v.bao });
    const here = pos++;
    if (extra) img.classList.add("drawn");
    const a = discards.get(k);
    if (a) {
      img.classList.add("playable"); img.dataset.discard = a.action;
      if (selected === k && selectedPos === here) img.classList.add("selected");
      if (top === k && !marked) { img.classList.add("hinted"); marked = true; }
      img.addEventListener("click", () => {
        if (selected === k) { act(a.action); return; }  // tap again (any copy of the kind): discard
        selected = k; selectedPos = here; render();
      });
      const dw = S.discard_waits && S.discard_waits[tileCode(k)];
      if (dw) img.classList.add("tenpai-discard");
    }
    tiles.append(img);
  };
  hand.forEach(k => addTile(k, false));
  if (v.drawn !== null) addTile(v.drawn, true);
  box.append(tiles);
  const waits = el("div", { class: "waits" });
  if (S.waits && S.waits.length) {
    waits.append(el("b", { text: t("waits") }), ...S.waits.map(w => el("span", { class: "wait" }, tileImg(w.kind, { small: true, bao: v.bao }), el("small", { text: t("unseen", w.unseen) }))));
  } else if (selected !== null && (S.baodiao_discards || []).includes(tileCode(selected))) {
    // 宝吊头: every drawn tile wins — one word, not ~33 wait kinds
    waits.append(el("b", { text: `${t("discard")} ${tileLabel(selected)} → ${t("waits")}` }), el("span", { class: "wait any", id: "waits-any", text: M("baodiao_any") }));
  } else if (selected !== null && S.discard_waits && S.discard_waits[tileCode(selected)]) {
    waits.append(el("b", { text: `${t("discard")} ${tileLabel(selected)} → ${t("waits")}` }),
      ...S.discard_waits[tileCode(selected)].map(w => el("span", { class: "wait" }, tileImg(w.kind, { small: true, bao: v.bao }), el("small", { text: t("unseen", w.unseen) }))));
  }
  box.append(waits, el("div", { id: "error", class: "error", text: lastError }));
  return box;
}
// ------------------------------------------------------------------ 倒牌 settlement
function winHow(w) {
  if (w.heavenly) return t("heavenly");
  if (w.win_by === "self_draw") return w.kong_chain > 0 ? t("gangkai") : t("self_draw");
  if (w.win_by === "robbing_kong") return `${t("robbing_kong")} · ${t("from_seat", who(w.from))}`;
  return `${t("dealer_first_discard")} · ${who(w.from)}`;
}
function groupTiles(w, bao) {
  const row = el("div", { class: "reading" });
  w.groups.forEach((g, gi) => {
    const grp = el("span", { class: "group" });
    g.tiles.forEach((k, ti) => {
      const marked = w.mark && w.mark[0] === gi && w.mark[1] === ti;
      const img = tileImg(k, { cls: (g.wild[ti] ? "as-bao" : "") + (marked ? " win-tile" : "") });
      if (g.wild[ti]) { img.append(el("img", { class: "bao-badge", src: "/static/tiles/bao.svg", alt: "宝" })); img.title = t("stands_for", tileLabel(k)); img.append(el("small", { class: "as", text: t("stands_for", tileLabel(k)) })); }
      if (marked) img.append(el("small", { class: "win-mark", text: t("win_tile") }));
      grp.append(img);
    });
    row.append(grp);
  });
  for (const m of w.melds) row.append(meldTiles(m, bao));
  return row;
}
function settlement() {
  const s = S.settlement || {}, r = S.reveal, v = S.view, tb = S.table;
  const box = el("div", { class: "settlement", id: "settlement" });
  const card = el("div", { class: "card-s" });
  box.append(card);
  card.append(el("h2", { text: `${t("settlement")} · ${t("hand", S.hand_no + 1, tb.hands_total)}` }));
  // a match dissolved between hands: its last settlement says so at the top (issue 24)
  if (tb.end_reason === "dissolved") card.append(el("h2", { id: "dissolved", class: "dissolved", text: M("dissolved") }));
  if (s.drawn) card.append(el("p", { class: "drawn", text: t("reveal_drawn") }));
  for (const w of (r ? r.wins : [])) {
    const win = el("div", { class: "win", "data-winner": w.seat });
    win.append(el("h3", {}, `${t("winner")}${colon()}${who(w.seat)} · `, el("b", { text: winHow(w) })));
    win.append(groupTiles(w, v ? v.bao : null));
    const items = el("ul", { class: "items" });
    // English: the pattern's and the clause's English names with the Chinese beside (issue 38)
    const clause = LANG === "zh" || !w.pattern.clause_en ? ` （${w.pattern.clause}）` : ` (${w.pattern.clause_en}: ${w.pattern.clause})`;
    items.append(el("li", {}, el("b", { text: `${itemName("patterns", w.pattern.id, w.pattern.name)} ×${w.pattern.factor}` }), el("small", { class: "clause", text: clause })));
    for (const d of w.doublings) items.append(el("li", { text: `${itemName("doublings", d.id, d.name)} ×${d.factor}${d.count > 1 ? ` (${d.count})` : ""}` }));
    items.append(el("li", { text: `${t("hand_value")} ${w.hand_value}` }));
    items.append(el("li", { text: `${t("payments")}${colon()}` + w.payers.map((p, i) => `${who(p)} ${w.win_payments[i]}`).join(listSep()) }));
    for (const why of flownWords(w, who)) items.append(el("li", { class: "flown-why", text: why }));
    win.append(items);
    card.append(win);
  }
  if (r) {
    const all = el("div", { class: "all-hands" }, el("h3", { text: t("all_hands") }));
    for (let q = 0; q < 4; q++) {
      if (r.wins.some(w => w.seat === q)) continue;
      all.append(el("div", { class: "rev", "data-seat": q }, el("span", { class: "who", text: who(q) }),
        ...r.hands_down[q].map(k => tileImg(k, { small: true, bao: v.bao })), ...(v.melds[q] || []).map(m => meldTiles(m, v.bao))));
    }
    card.append(all);
  }
  if ((s.bonuses || []).length) card.append(el("p", { text: `${t("bonuses")}${colon()}` + s.bonuses.map(b => `${who(b.seat)} ${itemName("bonuses", b.reason, b.name)}`).join(listSep()) }));
  const tr = el("table", { class: "transfers" }, el("tr", {}, el("th", { text: t("payer") }), el("th", { text: t("payee") }), el("th", { text: t("points") }), el("th", { text: t("clause") })));
  for (const x of s.transfers || []) tr.append(el("tr", {}, el("td", { text: who(x.payer) }), el("td", { text: who(x.payee) }), el("td", { text: x.points }), el("td", { text: transferName(s, x) })));
  card.append(el("h3", { text: t("transfers") }), tr);
  if (s.deltas) {
    const dl = el("table", { class: "deltas" });
    dl.append(el("tr", {}, el("th", { text: "" }), ...[0, 1, 2, 3].map(i => el("th", { text: who(i) }))));
    dl.append(el("tr", {}, el("th", { text: t("delta") }), ...s.deltas.map(d => el("td", { text: fmtPoints(d), class: d > 0 ? "plus" : d < 0 ? "minus" : "" }))));
    dl.append(el("tr", {}, el("th", { text: t("running") }), ...s.scores.map(d => el("td", { text: d }))));
    card.append(dl);
  }
  if (tb.status !== "finished" && WATCH) {
    // a spectator has no 继续
  } else if (tb.status !== "finished") {
    card.append(el("div", { class: "buttons" }, el("button", { id: "next", class: "act primary", text: t("next"), onclick: () => send({ type: "ready" }) })));
  } else {
    card.append(matchEnd());
  }
  return box;
}
function matchEnd() {
  const tb = S.table;
  const box = el("div", { class: "match-end", id: "match-end" }, el("h2", { text: t("match_over") }));
  const order = [0, 1, 2, 3].sort((a, b) => tb.scores[b] - tb.scores[a]);
  // tied players share a rank (1, 1, 3, 4: the list's number is the rank)
  const rank = (s) => 1 + tb.scores.filter(x => x > tb.scores[s]).length;
  box.append(el("ol", { class: "ranking" }, ...order.map(s => el("li", { value: rank(s), "data-rank": rank(s), text: `${who(s)}  ${tb.scores[s]}` }))));
  const ph = el("table", { class: "per-hand" }, el("tr", {}, el("th", { text: t("hand_no") }), ...[0, 1, 2, 3].map(i => el("th", { text: who(i) }))));
  (tb.history || []).forEach((d, i) => ph.append(el("tr", {}, el("th", { text: i + 1 }), ...d.map(x => el("td", { text: fmtPoints(x) })))));
  ph.append(el("tr", {}, el("th", { text: t("running") }), ...tb.scores.map(x => el("td", { text: x }))));
  box.append(el("h3", { text: t("per_hand") }), ph);
  const btns = el("div", { class: "buttons" });
  // asked again: the one who asked first gets their seat link back (a first answer lost), the others the join link
  // a room's match (issue 24): the next one is the room's, each member at their own seat
  const next = tb.room ? `/room/${tb.room}/play` : `/join/${tb.rematch}`;
  // at a room's table the next match is the room's next 场 (issue 38)
  if (tb.rematch) btns.append(el("a", { class: "button primary", id: "rematch-join", href: next, text: tb.room ? label("room", "next_match_room") : t("new_match_link") + "#" + tb.rematch, onclick: (e) => { e.preventDefault(); rematch(next); } }));
  else if (!WATCH) btns.append(el("button", { class: "act primary", id: "rematch", text: tb.room ? label("room", "next_match_room") : t("new_match"), onclick: () => rematch() }));
  if (tb.room && !WATCH) btns.append(el("a", { class: "button", id: "back-room", href: `/room/${tb.room}`, text: label("room", "back_room") }));
  if (tb.id !== undefined && tb.id !== null) btns.append(el("a", { class: "button", id: "review-game", href: `/replay/${tb.id}?review=1`, text: t("review_game") }));
  btns.append(el("a", { class: "button", id: "back-lobby", href: "/", text: t("back_lobby") }));
  box.append(btns);
  return box;
}
async function rematch(fallback) {
  try {
    const r = await fetch(`/api/tables/${TABLE_ID}/rematch`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token: TOKEN }) });
    if (r.ok) { const d = await r.json(); location.href = d.url; return; }
  } catch (e) { /* the answer was lost: the button asks again */ }
  if (fallback) location.href = fallback;
}
function startTick() {
  if (tick) clearInterval(tick);
  const upd = () => {
    const c = document.getElementById("countdown");
    if (!c) return;
    if (deadlineAt == null) { c.textContent = ""; return; }
    const s = Math.max(0, Math.ceil((deadlineAt - Date.now()) / 1000));
    c.textContent = `${s}s`;
    c.classList.toggle("urgent", s <= 5);
  };
  upd();
  tick = setInterval(upd, 250);
}
connect();
