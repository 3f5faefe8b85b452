// The table: one WebSocket per seat link; the server sends this seat's whole view after every change.
"use strict";
const parts = location.pathname.split("/"); // /t/{id}/{token}
const TABLE_ID = parts[2], TOKEN = parts[3];
let S = null, ws = null, tick = null, deadlineAt = null, lastError = "";
document.getElementById("nav").append(navBar("table"));

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws/${TABLE_ID}/${TOKEN}`);
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data);
    if (m.type === "state") { S = m; lastError = ""; deadlineAt = m.deadline == null ? null : Date.now() + m.deadline * 1000; render(); }
    else if (m.type === "error" || m.type === "notice") { lastError = m.message; renderError(); }
  };
  ws.onclose = () => { setTimeout(connect, 1000); };
}
function send(obj) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(obj)); }
function act(a) { send({ type: "action", action: a, seq: S.seq, hand: S.hand_no }); }

function actionLabel(a) {
  if (a.type === "pass") return a.declines_win ? `${t("pass")}（${t("touji")}）` : t("pass");
  if (a.type === "chow") return t("chow");
  return t(a.type);
}
function renderError() {
  const box = document.getElementById("error");
  if (box) box.textContent = lastError;
}
function seatPanel(s, pos) {
  const v = S.view, tb = S.table, me = S.you;
  const p = tb.players[s];
  const flags = [];
  if (s === v.dealer) flags.push(el("span", { class: "badge dealer", text: t("dealer") }));
  if (p.kind === "human") flags.push(el("span", { class: "badge " + (p.connected ? "on" : "off"), text: p.standin ? t("standin") : (p.connected ? t("connected") : t("offline")) }));
  const head = el("div", { class: "seat-head" + (v.current_seat === s ? " current" : "") },
    el("span", { class: "wind", text: v.winds[s] }),
    el("span", { class: "who", text: seatName(tb.players, s, me) }), ...flags,
    el("span", { class: "score", text: `${t("score")} ${v.scores[s]}` }));
  if (v.flown[s]) head.append(el("span", { class: "badge flown", text: `${t("flown")}×${v.flown[s]}` }));
  const melds = el("div", { class: "melds" }, ...v.melds[s].map(m => meldTiles(m, v.bao)));
  const pond = el("div", { class: "pond" });
  const last = v.last_discard;
  v.discards[s].forEach((k, i) => pond.append(tileImg(k, { small: true, bao: v.bao, last: last && last[0] === s && i === v.discards[s].length - 1 })));
  const panel = el("section", { class: `seat ${pos}`, "data-seat": s }, head, melds, pond);
  if (s !== me) panel.append(el("div", { class: "hidden-hand" }, ...Array.from({ length: v.hand_sizes[s] }, () => backImg(true))));
  return panel;
}
function render() {
  const app = document.getElementById("app");
  app.replaceChildren();
  document.body.dataset.seq = `${S.hand_no}:${S.seq}`;
  const tb = S.table, v = S.view, me = S.you;
  document.body.dataset.status = tb.status;
  const info = el("div", { class: "info" },
    el("span", { class: "tname", text: tb.name }),
    el("span", { text: t("hand", Math.min(S.hand_no + 1, tb.hands_total), tb.hands_total) }));
  if (v) {
    info.append(el("span", { class: "bao-box" }, t("indicator"), " ", tileImg(v.indicator, { small: true }), " → ", t("bao"), " ", tileImg(v.bao, { small: true, bao: v.bao })),
      el("span", { id: "tiles-left", text: `${t("tiles_left")} ${v.tiles_left}` }));
  }
  app.append(info);
  if (tb.status === "waiting") {
    const link = `${location.origin}/join/${tb.id}`;
    app.append(el("div", { class: "waiting" }, el("h2", { text: t("waiting_players") }),
      el("p", {}, t("invite"), ": ", el("code", { id: "invite", text: link })),
      el("button", { onclick: () => send({ type: "fill_bots" }), text: t("fill_bots") })));
  }
  if (!v) return;
  const board = el("div", { class: "board" },
    seatPanel((me + 2) % 4, "top"), seatPanel((me + 3) % 4, "left"), center(), seatPanel((me + 1) % 4, "right"), seatPanel(me, "bottom"));
  app.append(board, myHand(), el("div", { id: "error", class: "error", text: lastError }));
  if (S.settlement && v.phase === "over") {
    const st = settlementView(S.settlement, tb.players, me);
    if (tb.status !== "finished") st.append(el("button", { id: "next", class: "act", text: t("next"), onclick: () => send({ type: "ready" }) }));
    else st.append(el("h2", { text: t("match_over") }));
    app.append(st);
  }
  startTick();
}
function center() {
  const v = S.view;
  const c = el("section", { class: "center" });
  let msg;
  if (v.phase === "over") msg = t("settlement");
  else if (v.current_seat === S.you) msg = t("your_turn");
  else msg = t("waiting_for", seatName(S.table.players, v.current_seat, S.you));
  c.append(el("div", { class: "turn", text: msg }), el("div", { id: "countdown", class: "countdown" }));
  if (v.kong) c.append(el("div", { class: "kong", text: `${seatName(S.table.players, v.kong[0], S.you)} ${t("kong")} ${tileLabel(v.kong[1])}` }));
  const log = el("ol", { class: "log" });
  for (const ev of S.log.slice(-8)) { const line = logLine(ev); if (line) log.append(el("li", { text: line })); }
  c.append(log);
  return c;
}
function logLine(ev) {
  const who = (s) => seatName(S.table.players, s, S.you);
  const k = (code) => tileLabel(kindOf(code));
  switch (ev.type) {
    case "deal": return `${t("dealer")} ${who(ev.dealer)} · ${t("bao")} ${k(ev.bao)}`;
    case "draw": return ev.seat === S.you && ev.kind ? `${who(ev.seat)} 摸 ${k(ev.kind)}` : null;
    case "discard": return `${who(ev.seat)} ${t("discard")} ${k(ev.kind)}`;
    case "chow": case "pung": case "kong": return `${who(ev.seat)} ${t(ev.type)} ${meldLabel(ev.meld)}`;
    case "concealed_kong": case "added_kong": return `${who(ev.seat)} ${t(ev.type)} ${k(ev.kind)}`;
    case "catch_bao": return `${who(ev.seat)} ${t("catch_bao")}`;
    case "four_bao": return `${who(ev.seat)} 四个宝`;
    case "transfer": return `${who(ev.payer)} → ${who(ev.payee)} ${ev.points} (${ev.name})`;
    case "win": return `${who(ev.seat)} ${t("win")} ${ev.pattern}`;
    case "end": return ev.drawn ? t("drawn") : null;
    default: return null;
  }
}
function meldLabel(text) { // "pung:111z" -> 东东东
  const body = (text.split(":")[1] || "");
  const suit = body.slice(-1);
  return body.slice(0, -1).split("").map(d => tileLabel(kindOf(d + suit))).join("");
}
function myHand() {
  const v = S.view, me = S.you;
  const legal = S.legal || [];
  const discards = new Map(legal.filter(a => a.type === "discard").map(a => [a.tile, a]));
  const box = el("section", { class: "my-hand" });
  const tiles = el("div", { class: "hand" });
  let drawnShown = false;
  const hand = [...v.hand];
  if (v.drawn !== null) { const i = hand.indexOf(v.drawn); if (i >= 0) hand.splice(i, 1); }
  const addTile = (k, extra) => {
    const img = tileImg(k, { bao: v.bao });
    if (extra) img.classList.add("drawn");
    const a = discards.get(k);
    if (a) { img.classList.add("playable"); img.dataset.action = a.action; img.title = a.declines_win ? `${t("discard")} (${t("touji")})` : t("discard"); img.addEventListener("click", () => act(a.action)); }
    const dw = S.discard_waits && S.discard_waits[tileCode(k)];
    if (dw && a) img.classList.add("tenpai-discard");
    tiles.append(img);
  };
  hand.forEach(k => addTile(k, false));
  if (v.drawn !== null) { tiles.append(el("span", { class: "gap" })); addTile(v.drawn, true); drawnShown = true; }
  box.append(tiles);
  const buttons = el("div", { class: "actions" });
  for (const a of legal) {
    if (a.type === "discard") continue;
    const b = el("button", { class: `act ${a.type}`, "data-action": a.action, onclick: () => act(a.action) }, actionLabel(a));
    if (a.tiles) a.tiles.forEach(k => b.append(tileImg(k, { small: true, bao: v.bao })));
    else if (a.tile !== null && a.tile !== undefined) b.append(tileImg(a.tile, { small: true, bao: v.bao }));
    buttons.append(b);
  }
  if (discards.size && v.current_seat === me) buttons.append(el("span", { class: "hint", text: t("discard_hint") }));
  box.append(buttons);
  if (S.waits && S.waits.length) {
    box.append(el("div", { class: "waits" }, el("b", { text: t("waits") + ": " }),
      ...S.waits.map(w => el("span", { class: "wait" }, tileImg(w.kind, { small: true, bao: v.bao }), el("small", { text: t("unseen", w.unseen) })))));
  } else if (S.discard_waits && Object.keys(S.discard_waits).length) {
    const row = el("div", { class: "waits" }, el("b", { text: t("waits") + ": " }));
    for (const [code, ws_] of Object.entries(S.discard_waits)) {
      row.append(el("span", { class: "dw" }, `${t("discard")} `, tileImg(kindOf(code), { small: true, bao: v.bao }), " → ",
        ...ws_.map(w => el("span", { class: "wait" }, tileImg(w.kind, { small: true, bao: v.bao }), el("small", { text: t("unseen", w.unseen) })))));
    }
    box.append(row);
  }
  return box;
}
function startTick() {
  if (tick) clearInterval(tick);
  const upd = () => {
    const c = document.getElementById("countdown");
    if (!c) return;
    if (deadlineAt == null) { c.textContent = ""; return; }
    const s = Math.max(0, Math.ceil((deadlineAt - Date.now()) / 1000));
    c.textContent = `${t("countdown")} ${s}s`;
    c.classList.toggle("urgent", s <= 5);
  };
  upd();
  tick = setInterval(upd, 250);
}
connect();
