"use strict";
// Replay viewer: the server replays a stored hand with the engine and sends one frame per decision.
document.getElementById("nav").append(navBar("history"));
const GAME_ID = location.pathname.split("/")[2];
let G = null, F = null, idx = 0, timer = null;
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
  loadHand(G.hands[0].index);
}
async function loadHand(h) {
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
    el("span", { id: "pos" }));
}
function show() {
  const fr = F.frames[idx];
  document.getElementById("slider").value = idx;
  document.getElementById("pos").textContent = ` ${idx}/${F.frames.length - 1}`;
  const box = document.getElementById("frame");
  box.replaceChildren();
  const players = F.players;
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
