"use strict";
// Replay viewer: the server replays a stored hand with the engine and sends one frame per decision.
document.getElementById("nav").append(navBar("history"));
const GAME_ID = location.pathname.split("/")[2];
let G = null, F = null, idx = 0, timer = null, H = 0;
// review mode (issue 37): ?review=1 — per decision the options' values, the choice marked, mistakes stepped through
const PARAMS = new URLSearchParams(location.search);
let REVIEW = PARAMS.has("review"), RV = null, RSEAT = null, BIG_ONLY = false;
async function load() {
  const head = document.getElementById("head");
  let r = null;
  try { r = await fetch(`/api/games/${encodeURIComponent(GAME_ID)}`); } catch (e) { r = null; }
  if (!r || !r.ok) {  // an unknown or malformed id, or records that cannot be read: a page, not a blank
    const known = r && (r.status === 404 || r.status === 422);
    pageError(head, known ? t("no_game", GAME_ID) : t("cannot_read"), "/history", "back_history");
    return;
  }
  G = await r.json();
  head.append(el("h2", { text: `${t("game")} #${G.id} ${G.name || gameKind(G.kind)} · ${t(G.status)} · ${G.scores.map(fmtPoints).join(" ")}` }));
  if (!G.hands.length) { head.append(el("p", { text: t("none") })); return; }
  const sel = el("select", { id: "hand-select", onchange: (e) => loadHand(parseInt(e.target.value, 10)) },
    ...G.hands.map(h => el("option", { value: h.index, text: `${t("hand_label")} ${h.index + 1}` })));
  head.append(sel);
  head.append(el("a", { class: "button", id: "review-toggle", href: REVIEW ? `/replay/${G.id}` : `/replay/${G.id}?review=1`,
    text: REVIEW ? t("replay") : t("review") }));
  if (REVIEW) { head.append(el("div", { id: "review-summary", class: "card-s review-summary" })); loadReview(); }
  await loadHand(G.hands[0].index);
}
function defaultSeat() {
  const humans = G.players.map((p, s) => p === "human" ? s : -1).filter(s => s >= 0);
  const asked = parseInt(PARAMS.get("seat"), 10);
  return Number.isInteger(asked) && asked >= 0 && asked < 4 ? asked : (humans.length ? humans[0] : 0);
}
async function loadReview() {
  if (RSEAT === null) RSEAT = defaultSeat();
  const box = document.getElementById("review-summary");
  let r = null;
  try { r = await fetch(`/api/games/${encodeURIComponent(GAME_ID)}/review`); } catch (e) { r = null; }
  if (!r) { box.replaceChildren(el("p", { class: "error", text: t("cannot_read") })); return; }
  const d = await r.json();
  if (r.status === 202) {
    box.replaceChildren(el("p", { id: "review-progress", text: t("reviewing", d.done, d.total) }),
      el("progress", { max: d.total, value: d.done }));
    setTimeout(loadReview, 1000);
    return;
  }
  if (r.status === 503) {  // the server's review queue is full: waits its turn
    box.replaceChildren(el("p", { id: "review-progress", text: t("review_busy") }));
    setTimeout(loadReview, 10000);
    return;
  }
  if (!r.ok) { box.replaceChildren(el("p", { class: "error", text: t("review_failed", String(d.detail)) })); return; }
  RV = d; summary(); if (F) show();
}
function decisions() { return RV ? RV.hands.flatMap(h => h.decisions.filter(d => d.seat === RSEAT)) : []; }
function summary() {
  const box = document.getElementById("review-summary");
  const s = RV.summary[String(RSEAT)];
  const pick = el("select", { id: "review-seat", onchange: (e) => { RSEAT = parseInt(e.target.value, 10); summary(); show(); } },
    ...[0, 1, 2, 3].map(x => el("option", { value: x, text: seatName(G.players, x, -1), selected: x === RSEAT ? "selected" : null })));
  const stat = (k, v) => el("div", { class: "stat" }, el("span", { class: "k", text: t(k) }), el("b", { text: v }));
  box.replaceChildren(el("h3", { text: t("review_title") }), el("label", {}, t("review_of"), " ", pick),
    el("div", { class: "stats", id: "review-stats" }, stat("match_rate", `${Math.round(100 * s.match_rate)}%`),
      stat("loss_hand", s.loss_per_hand.toFixed(2)), stat("mistakes", String(s.mistakes)), stat("big_mistakes", String(s.big_mistakes))),
    el("p", { class: "note", text: t("review_note") }));
}
function isMistake(d) { return d.loss > (BIG_ONLY ? 2 : 0.5); }
function jumpMistake(dir) {
  const ms = decisions().filter(isMistake);
  const here = [H, idx];
  const key = (d) => [d.hand, d.step - 1];
  const cmp = (a, b) => a[0] - b[0] || a[1] - b[1];
  const target = dir > 0 ? ms.find(d => cmp(key(d), here) > 0) : [...ms].reverse().find(d => cmp(key(d), here) < 0);
  if (!target) return;
  const go = () => { idx = target.step - 1; show(); };
  if (target.hand !== H) { document.getElementById("hand-select").value = target.hand; loadHand(target.hand).then(go); } else go();
}
function reviewControls() {
  if (!REVIEW) return [];
  return [el("button", { id: "prev-mistake", text: t("prev_mistake"), onclick: () => jumpMistake(-1) }),
    el("button", { id: "next-mistake", text: t("next_mistake"), onclick: () => jumpMistake(1) }),
    el("label", { class: "big-only" }, el("input", { type: "checkbox", id: "big-only", onchange: (e) => { BIG_ONLY = e.target.checked; show(); } }), " ", t("big_only"))];
}
function actionWords(a) { return LANG === "zh" ? zhSeq(a) : a; }
function reviewPanel() {
  const box = el("div", { id: "review-decision", class: "card-s review-decision" });
  const d = decisions().find(x => x.hand === H && x.step === idx + 1);
  if (!d) { box.append(el("p", { class: "note", text: t("not_decision", seatName(G.players, RSEAT, -1)) })); return box; }
  const cls = d.loss > 2 ? "big" : d.loss > 0.5 ? "mistake" : "ok";
  box.classList.add(cls);
  box.append(el("p", { class: "review-head" }, el("b", { text: `${t("loss")} ${d.loss.toFixed(2)}` }),
    `  ${t("chosen")}: ${actionWords(d.chosen)}`));
  const bao = F.frames[idx].bao;
  box.append(el("div", { class: "hand review-hand" }, ...d.tiles.map(k => tileImg(k, { small: true, bao }))));
  const shown = d.options.slice(0, 6);
  if (!shown.some(o => o.action === d.chosen)) shown.push(d.options.find(o => o.action === d.chosen));
  // bars: the best option full, the worst short (a tenth of the spread below it), so the choice's gap shows
  const vals = d.options.map(o => o.value), hi = Math.max(...vals), lo0 = Math.min(...vals);
  const lo = lo0 - 0.1 * ((hi - lo0) || 1);
  for (const o of shown) {
    const w = Math.max(2, Math.round(100 * (o.value - lo) / (hi - lo)));
    const mark = o.action === d.chosen ? "chosen" : (o.action === d.best ? "best" : "");
    box.append(el("div", { class: `opt ${mark}`, "data-action": o.action },
      el("span", { class: "opt-name", text: actionWords(o.action) + (o.action === d.chosen ? ` ◀ ${t("chosen")}` : "") + (o.action === d.best ? ` ★ ${t("best_choice")}` : "") }),
      el("span", { class: "bar" }, el("span", { class: "fill", style: `width:${w}%` })),
      el("span", { class: "val", text: (o.value >= 0 ? "+" : "") + o.value.toFixed(2) })));
  }
  if (d.options.length > shown.length) box.append(el("p", { class: "note", text: t("more_options", d.options.length - shown.length) }));
  const reason = LANG === "zh" ? (d.reason_zh || d.reason) : d.reason;  // in the page's language (a review stored before reason_zh: English)
  if (reason) box.append(el("p", { class: "reason", text: reason }));
  return box;
}
async function loadHand(h) {
  H = h;
  const r = await fetch(`/api/games/${GAME_ID}/hands/${h}/frames`);
  const d = await r.json();
  if (!r.ok) {  // a stored hand that cannot be replayed (a damaged record): say so
    F = null; document.getElementById("controls").replaceChildren(); document.getElementById("result").replaceChildren();
    document.getElementById("frame").replaceChildren(el("p", { class: "error", text: String(d.detail) }));
    return;
  }
  F = d; idx = 0; controls(); show();
}
function controls() {
  const c = document.getElementById("controls");
  c.replaceChildren(
    el("button", { id: "prev", text: t("prev"), onclick: () => { idx = Math.max(0, idx - 1); show(); } }),
    el("button", { id: "step", text: t("nextstep"), onclick: () => { idx = Math.min(F.frames.length - 1, idx + 1); show(); } }),
    el("button", { id: "play", text: t("play"), onclick: () => {
      if (timer) { clearInterval(timer); timer = null; return; }
      timer = setInterval(() => { if (idx >= F.frames.length - 1) { clearInterval(timer); timer = null; } else { idx++; show(); } }, 400);
    } }),
    el("input", { type: "range", min: 0, max: F.frames.length - 1, value: idx, id: "slider", oninput: (e) => { idx = parseInt(e.target.value, 10); show(); } }),
    el("span", { id: "pos" }), ...reviewControls());
}
function show() {
  const fr = F.frames[idx];
  document.getElementById("slider").value = idx;
  document.getElementById("pos").textContent = ` ${idx}/${F.frames.length - 1}`;
  const box = document.getElementById("frame");
  box.replaceChildren();
  const players = F.players;
  if (REVIEW && RV) box.append(reviewPanel());
  box.append(el("p", {}, t("indicator"), " ", tileImg(fr.indicator, { small: true }), " → ", t("bao"), " ", tileImg(fr.bao, { small: true, bao: fr.bao }),
    `  ${t("tiles_left")} ${fr.tiles_left}`));
  if (fr.event) box.append(el("p", { class: "step-action", text: `${seatName(players, fr.event.seat, -1)}: ${LANG === "zh" ? zhSeq(fr.event.action) : fr.event.action}` }));
  for (let s = 0; s < 4; s++) {
    const row = el("section", { class: "replay-seat" + (fr.current_seat === s ? " current" : "") },
      el("div", { class: "seat-head" }, el("span", { class: "wind", text: I18N.zh.seat_names[(s - fr.dealer + 4) % 4] }),
        el("span", { class: "who", text: seatName(players, s, -1) }), s === fr.dealer ? el("span", { class: "badge dealer", text: t("dealer") }) : null,
        el("span", { class: "score", text: `${t("score")} ${fr.scores[s]}` })),
      el("div", { class: "hand" }, ...fr.hands[s].map(k => tileImg(k, { small: true, bao: fr.bao })), " ", ...fr.melds[s].map(m => meldTiles(m, fr.bao))),
      el("div", { class: "pond" }, ...fr.discards[s].map((k, i) => tileImg(k, { small: true, bao: fr.bao, last: fr.last_discard && fr.last_discard[0] === s && i === fr.discards[s].length - 1 }))));
    box.append(row);
  }
  const res = document.getElementById("result");
  res.replaceChildren();
  if (idx === F.frames.length - 1) res.append(settlementView(F.result, players, -1, fr.wins || []));
}
load();
