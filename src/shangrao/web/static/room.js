// Rooms (issue 24): the lobby's 房间 card (open a room, enter one by its code) and the room page
// (/room/<code>: its code with a copy-link button, members and seats, the current table, 战绩, CSV).
// Every word is the server's (label("room", …)); the member is known by an HttpOnly cookie.
"use strict";
function rw(key, ...args) {
  let s = label("room", key);
  args.forEach((a, i) => { s = s.replace(`{${i}}`, a); });
  return s;
}
// a refused room request in the page's language: the answer's code, else the shared words
function roomRefusal(r, d) {
  if (d && typeof d.code === "string" && LABELS.room[d.code]) return rw(d.code);
  return refusal(r.status, d && d.detail);
}
async function postJSON(url, body) {
  let r = null, d = {};
  try {
    r = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body || {}) });
    d = await r.json();
  } catch (err) { if (!r) return { ok: false, text: t("server_busy") }; }
  return r.ok ? { ok: true, d } : { ok: false, text: roomRefusal(r, d) };
}
const ROOM_CODE = /^\d{6}$/;

// ------------------------------------------------------------------ a room's settings (issue 38)
// The rules (the 开桌 card's options, the text's reading preselected), 允许提示 and the bot of the
// empty seats; /api/rules says which options and bots the server offers.
let RULES_INFO = null;
async function rulesInfo() {
  if (!RULES_INFO) RULES_INFO = fetch("/api/rules").then(r => r.json());
  return RULES_INFO;
}
const botName = (k) => (k ? t(k) : rw("strongest"));
function setupFields(info, setup) {
  const box = el("div", { class: "room-setup-fields" });
  const sel = el("select", { name: "bot", class: "setup-bot" }, el("option", { value: "", text: rw("strongest"), selected: !setup.bot }),
    ...[...info.bots].reverse().map(k => el("option", { value: k, text: t(k), title: label("bots", k, "label"), selected: setup.bot === k })));
  box.append(el("label", {}, el("input", { type: "checkbox", name: "hints", class: "setup-hints", checked: setup.hints })," " + rw("hints_on")),
    el("label", {}, el("span", { text: rw("empty_bot") + " " }), sel));
  const rules = el("div", { class: "rules-grid" });
  for (const f of info.fields) {
    const v = f.name in setup.rules ? setup.rules[f.name] : f.default;
    const input = f.type === "bool" ? el("input", { type: "checkbox", name: f.name, checked: v })
      : el("input", { type: "number", min: 0, name: f.name, value: v });
    input.dataset.type = f.type; input.dataset.default = String(f.default); input.classList.add("setup-rule");
    rules.append(el("label", {}, label("rules", f.name) + " ", input));
  }
  box.append(el("details", {}, el("summary", { text: label("room", "match_rules") }), rules));
  return box;
}
// the form's settings: only the rules that differ from the text's reading are sent
function readSetup(form) {
  const rules = {};
  form.querySelectorAll("input.setup-rule").forEach(i => {
    const v = i.dataset.type === "bool" ? i.checked : parseInt(i.value, 10);
    if (String(v) !== i.dataset.default) rules[i.name] = v;
  });
  const bot = form.querySelector("select.setup-bot").value;
  return { rules, hints: form.querySelector("input.setup-hints").checked, bot: bot || null };
}
// the changed rules in words: "碰后可杠：是 · 抢杠倍数：3", or 全部按原文
function rulesText(rules) {
  const yes = LANG === "zh" ? "是" : "yes", no = LANG === "zh" ? "否" : "no", sep = LANG === "zh" ? "：" : ": ";
  const parts = Object.entries(rules || {}).map(([k, v]) => `${label("rules", k)}${sep}${v === true ? yes : v === false ? no : v}`);
  return parts.length ? parts.join(" · ") : rw("rules_default");
}
function setupLine(setup) {
  return el("ul", { class: "room-setup", id: "room-setup" },
    el("li", { id: "setup-rules", text: rulesText(setup.rules) }),
    el("li", { id: "setup-hints", "data-hints": String(setup.hints), text: rw(setup.hints ? "hints_on" : "hints_off") }),
    el("li", { id: "setup-bot", "data-bot": setup.bot || "", text: `${rw("empty_bot")}${LANG === "zh" ? "：" : ": "}${botName(setup.bot)}` }));
}

// ------------------------------------------------------------------ the lobby's card
function lobbyCard() {
  const err = el("p", { class: "form-error", id: "room-error", role: "alert" });
  const open = el("form", { id: "room-open", novalidate: true },
    el("label", {}, el("span", { text: rw("your_name") + " " }), el("input", { name: "player", id: "room-player", maxlength: 40 })),
    el("label", {}, el("span", { text: rw("room_name") + " " }), el("input", { name: "name", maxlength: 40 })),
    el("label", {}, el("span", { text: t("hands") + " " }), el("input", { name: "hands", type: "number", min: 1, max: 32, value: 8 })));
  const fields = el("div", { id: "room-open-setup" });
  open.append(fields, el("button", { type: "submit", class: "primary", id: "room-open-btn", text: rw("open_room") }));
  rulesInfo().then(info => fields.append(setupFields(info, { rules: {}, hints: true, bot: null }))).catch(() => {});
  const enter = el("form", { id: "room-enter", novalidate: true },
    el("label", {}, el("span", { text: rw("code") + " " }), el("input", { name: "code", id: "room-code", inputmode: "numeric", maxlength: 6, size: 7, autocomplete: "off" })),
    el("button", { type: "submit", id: "room-enter-btn", text: rw("enter") }));
  open.addEventListener("submit", async (e) => {
    e.preventDefault();
    const fd = new FormData(open);
    err.textContent = "";
    if (!String(fd.get("player") || "").trim()) { err.textContent = rw("bad_name"); return; }
    const body = { player: fd.get("player") || "", name: fd.get("name") || "", hands: parseInt(fd.get("hands"), 10) || 8 };
    if (open.querySelector("select.setup-bot")) Object.assign(body, readSetup(open));
    const a = await postJSON("/api/rooms", body);
    if (!a.ok) { err.textContent = a.text; return; }
    location.href = a.d.url;
  });
  enter.addEventListener("submit", (e) => {
    e.preventDefault();
    const code = String(new FormData(enter).get("code") || "").trim();
    if (!ROOM_CODE.test(code)) { err.textContent = rw("no_room"); return; }
    location.href = `/room/${code}`;
  });
  return el("section", { class: "card", id: "rooms" }, el("h2", { text: rw("rooms") }), el("p", { class: "note", text: rw("rooms_note") }), open, enter, err);
}

// ------------------------------------------------------------------ the room page
const CODE = (location.pathname.match(/^\/room\/(\d{6})/) || [])[1];
function playerName(room, seat) {
  const m = room.standings.players[seat];
  return m && m.name ? m.name : `${seat}号`;
}
function standingsTable(room) {
  const st = room.standings;
  const tb = el("table", { class: "standings", id: "standings" });
  // my column is marked by its colour (the members' list says （你）): four names fit a phone
  const mine = (i) => (room.me === i ? " mine" : "");
  tb.append(el("tr", {}, el("th", { text: "" }), ...[0, 1, 2, 3].map(i => el("th", { class: "name" + mine(i), title: playerName(room, i), text: playerName(room, i) }))));
  for (const m of st.matches) {
    tb.append(el("tr", { "data-match": m.match }, el("th", {}, rw("match_no", m.match), el("small", { text: rw("hands_n", m.hands.length) })),
      ...m.totals.map((x, i) => el("td", { text: fmtPoints(x), class: (x > 0 ? "plus" : x < 0 ? "minus" : "") + mine(i) }))));
  }
  tb.append(el("tr", { class: "total", id: "standings-total" }, el("th", { text: rw("total") }),
    ...st.totals.map((x, i) => el("td", { text: fmtPoints(x), "data-total": x, class: (x > 0 ? "plus" : x < 0 ? "minus" : "") + mine(i) }))));
  if (st.matches.length) {  // tied totals share a rank (1, 1, 3, 4)
    tb.append(el("tr", { class: "rank", id: "standings-rank" }, el("th", { text: rw("rank") }),
      ...st.totals.map((x, i) => el("td", { "data-rank": sharedRank(st.totals, i), text: sharedRank(st.totals, i), class: mine(i).trim() }))));
  }
  return tb;
}
// 1 + how many have more: tied players share their rank
function sharedRank(scores, i) { return 1 + scores.filter(x => x > scores[i]).length; }
// each match's rules, 提示 and bots as it was played (stored with the match)
function matchSetups(room) {
  return el("ul", { class: "match-setups", id: "match-setups" }, ...room.standings.matches.map(m => {
    const su = m.setup || { rules: {}, hints: true, bots: [] };
    const bots = [...new Set(su.bots.filter(b => b))].map(b => t(b)).join("、");
    const parts = [rulesText(su.rules), rw(su.hints ? "hints_on" : "hints_off")];
    if (bots) parts.push(`${rw("empty_bot")}${LANG === "zh" ? "：" : ": "}${bots}`);
    return el("li", { "data-match": m.match }, el("b", { text: rw("match_no", m.match) + " " }), parts.join(" · "));
  }));
}
function copyLink(btn) {
  const url = `${location.origin}/room/${CODE}`;
  const done = () => { btn.textContent = rw("copied"); setTimeout(() => { btn.textContent = rw("copy_link"); }, 2000); };
  if (navigator.clipboard && window.isSecureContext) { navigator.clipboard.writeText(url).then(done, () => prompt(rw("copy_link"), url)); }
  else { prompt(rw("copy_link"), url); }
}
function roomView(room) {
  const box = document.getElementById("room");
  const head = el("section", { class: "card room-head" },
    el("h1", { text: room.name }),
    el("p", { class: "room-code-line" }, el("span", { text: rw("code") + " " }), el("span", { class: "room-code", id: "room-code-big", text: room.code })),
    el("button", { id: "copy-link", text: rw("copy_link"), onclick: (e) => copyLink(e.target) }));
  const seats = el("ol", { class: "members", id: "members", start: 0 });
  for (let i = 0; i < 4; i++) {
    const m = room.members.find(x => x.seat === i);
    seats.append(el("li", { "data-seat": i, class: m ? "" : "empty" }, el("span", { class: "seat-no", text: `${i}号` }),
      el("span", { class: "member-name", text: m ? m.name + (room.me === i ? rw("me") : "") : rw("empty_seat") })));
  }
  const members = el("section", { class: "card" }, el("h2", { text: rw("members") }), seats);
  const err = el("p", { class: "form-error", id: "room-page-error", role: "alert" });
  if (room.me === null && room.members.length < 4) {
    const form = el("form", { id: "room-join", novalidate: true }, el("p", { text: rw("join_note") }),
      el("label", {}, el("span", { text: rw("your_name") + " " }), el("input", { name: "player", id: "join-player", maxlength: 40 })),
      el("button", { type: "submit", class: "primary", id: "room-join-btn", text: rw("join") }));
    const jerr = el("p", { class: "form-error", id: "room-join-error", role: "alert" });
    form.append(jerr);
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const player = String(new FormData(form).get("player") || "");
      if (!player.trim()) { jerr.textContent = rw("bad_name"); return; }
      const a = await postJSON(`/api/rooms/${CODE}/join`, { player });
      if (!a.ok) { jerr.textContent = a.text; return; }
      load();
    });
    members.append(form);
  } else if (room.me === null) {
    members.append(el("p", { class: "note", id: "room-full", text: rw("room_full") }));
  }
  const rulesCard = el("section", { class: "card", id: "rules-card" }, el("h2", { text: rw("room_rules") }), setupLine(room.setup));
  const cur = room.current;
  if (room.me === 0 && (!cur || cur.status === "finished")) {  // the creator, between matches
    const form = el("form", { id: "room-setup-form", novalidate: true });
    const serr = el("p", { class: "form-error", id: "setup-error", role: "alert" });
    rulesInfo().then(info => form.prepend(setupFields(info, room.setup))).catch(() => {});
    form.append(el("button", { type: "submit", class: "primary", id: "save-setup", text: rw("save_rules") }), serr);
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const a = await postJSON(`/api/rooms/${CODE}/setup`, readSetup(form));
      if (!a.ok) { serr.textContent = a.text; return; }
      document.getElementById("change-rules").open = false;
      lastRoom = ""; load();
    });
    rulesCard.append(el("details", { id: "change-rules" }, el("summary", { text: rw("change_rules") }), form),
      el("p", { class: "note", text: rw("rules_note") }));
  }
  const play = el("section", { class: "card", id: "current" }, el("h2", { text: rw("current") }));
  if (!cur) play.append(el("p", { text: rw("no_match") }));
  else {
    play.append(el("p", { id: "current-state", "data-status": cur.status, "data-table": cur.id,
      text: rw("match_state", cur.match, t(cur.status) + (cur.end_reason === "dissolved" ? (LANG === "zh" ? `（${label("manners", "end_dissolved")}）` : ` (${label("manners", "end_dissolved")})`) : ""), Math.min(cur.hands_played + (cur.status === "finished" ? 0 : 1), cur.hands_total), cur.hands_total) }));
    if (room.me !== null && cur.status !== "finished") play.append(el("a", { class: "button primary", id: "go-seat", href: `/room/${CODE}/play`, text: rw("go_seat") }));
  }
  if (room.me !== null && (!cur || cur.status === "finished")) {
    const start = el("button", { class: "primary", id: "start-match", text: cur ? rw("next_match", cur.match + 1) : rw("start") });
    start.addEventListener("click", async () => {
      start.disabled = true;
      const a = await postJSON(`/api/rooms/${CODE}/matches`, {});
      start.disabled = false;
      if (!a.ok) { err.textContent = a.text; return; }
      location.href = a.d.url;
    });
    play.append(start);
  }
  play.append(err);
  const st = el("section", { class: "card", id: "standings-card" }, el("h2", { text: rw("standings") }),
    el("div", { class: "scroll-x" }, standingsTable(room)), matchSetups(room),
    el("p", {}, el("a", { class: "button", id: "csv", href: `/room/${CODE}/standings.csv`, download: `room-${CODE}.csv`, text: rw("csv") })));
  const keep = document.activeElement && document.activeElement.id === "join-player" ? document.activeElement.value : null;
  const wasOpen = document.getElementById("change-rules");
  if (wasOpen && wasOpen.open && room.me === 0) { lastRoom = ""; return; }  // the creator is changing the rules: not redrawn under them
  box.replaceChildren(head, members, rulesCard, play, st);
  if (keep !== null) { const i = document.getElementById("join-player"); if (i) { i.value = keep; i.focus(); } }
}
let lastRoom = "";
async function load() {
  let r;
  try { r = await fetch(`/api/rooms/${CODE}`, { cache: "no-cache" }); } catch (e) { return; }
  let d = {};
  try { d = await r.json(); } catch (e) { /* not JSON: said below */ }
  if (!r.ok) { pageError(document.getElementById("room"), roomRefusal(r, d)); return; }
  const text = JSON.stringify(d);
  if (text === lastRoom) return;
  lastRoom = text;
  document.title = `${t("title")} · ${rw("rooms")} ${d.code}`;
  roomView(d);
}
if (document.getElementById("room")) {
  document.getElementById("nav").append(navBar(""));
  load();
  setInterval(load, 3000);
} else if (document.querySelector("main.lobby")) {
  const cards = document.querySelectorAll("main.lobby > section.card");
  cards[cards.length - 1].before(lobbyCard());
}
