"use strict";
document.getElementById("nav").append(navBar("lobby"));
document.querySelectorAll("[data-t]").forEach(e => { e.textContent = t(e.dataset.t); });
document.getElementById("h-create").textContent = t("create");
// the table's pace (issue 38): how soon the bots play and how long each discard stays open; the
// browser remembers the last choice
const PACE_WORDS = { zh: { label: "机器人节奏", slow: "慢", normal: "标准", fast: "快" },
  en: { label: "Bot pace", slow: "slow", normal: "normal", fast: "fast" } }[LANG];
const pace = document.getElementById("pace");
document.getElementById("pace-label").textContent = PACE_WORDS.label;
for (const o of pace.options) o.textContent = PACE_WORDS[o.value];
if (["slow", "normal", "fast"].includes(localStorage.getItem("shangrao-pace"))) pace.value = localStorage.getItem("shangrao-pace");
pace.addEventListener("change", () => localStorage.setItem("shangrao-pace", pace.value));
const seats = document.getElementById("seats");
seats.append(el("p", { text: `${t("seat")} 0: ${t("you")}` }));
fetch("/api/rules").then(r => r.json()).then(info => {
  // every bot of the registry, the strongest preselected
  for (let i = 1; i <= 3; i++) {
    const kinds = [...info.bots].reverse().concat(["human"]);
    const sel = el("select", { name: `seat${i}`, id: `seat${i}` }, ...kinds.map(k => el("option", { value: k, text: kindWord(k), title: label("bots", k, "label"), selected: k === info.default_bot })));
    seats.append(el("label", {}, `${t("seat")} ${i} `, sel));
  }
  const box = document.getElementById("rules");
  for (const f of info.fields) {
    const name = label("rules", f.name); // the rule's words: shangrao.rules.RULE_LABELS
    const input = f.type === "bool" ? el("input", { type: "checkbox", name: f.name, checked: f.default })
      : el("input", { type: "number", min: 0, name: f.name, value: f.default });
    input.dataset.type = f.type; input.classList.add("rule");
    box.append(el("label", {}, name + " ", input));
  }
});
document.getElementById("create").addEventListener("submit", async (e) => {
  e.preventDefault();
  const fd = new FormData(e.target);
  const rules = {};
  document.querySelectorAll("input.rule").forEach(i => { rules[i.name] = i.dataset.type === "bool" ? i.checked : parseInt(i.value, 10); });
  const body = { name: fd.get("name") || "", hands: parseInt(fd.get("hands"), 10), seats: [1, 2, 3].map(i => fd.get(`seat${i}`)), rules,
    hints: document.getElementById("hints").checked, pace: pace.value };
  const msg = document.getElementById("create-error");
  msg.textContent = "";
  let r = null, d = {};
  try { r = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }); d = await r.json(); }
  catch (err) { if (!r) { msg.textContent = t("server_busy"); return; } }
  if (!r.ok) { msg.textContent = refusal(r.status, d.detail); return; }
  location.href = d.url;
});
function tableItem(tb, joinable) {
  const kinds = tb.players.map(p => kindWord(p.kind)).join(" / ");
  // the hand being played, as the table shows it (第2/8局 while hand 2 is played); a waiting or finished table: the hands played
  const shown = tb.status === "playing" ? Math.min(tb.hands_played + 1, tb.hands_total) : tb.hands_played;
  const li = el("li", {}, `#${tb.id} ${tb.name} · ${t(tb.status)} · ${t("hand", shown, tb.hands_total)} · ${kinds} `);
  if (joinable) li.append(el("a", { class: "button", href: `/join/${tb.id}`, text: t("join") }));
  else li.append(el("a", { class: "button watch", href: `/watch/${tb.id}`, text: label("manners", "watch") })); // spectators: only what is public
  return li;
}
// The lists are paged (PAGE tables each, a "more" link for the next page) and re-read every 5 s with
// conditional requests: the server answers 304 (no body) while nothing the lobby shows has changed.
const PAGE = 20;
const pages = { open: 0, live: 0 };
async function loadList(status) {
  const r = await fetch(`/api/tables?status=${status}&limit=${PAGE}&offset=${pages[status] * PAGE}`, { cache: "no-cache" });
  if (!r.ok) return;
  const d = await r.json();
  const box = document.getElementById(status);
  const items = d.tables.length ? d.tables.map(x => tableItem(x, status === "open")) : [el("li", { text: t("none") })];
  if (pages[status] > 0) items.unshift(el("li", {}, el("a", { href: "#", text: "←", onclick: (e) => { e.preventDefault(); pages[status]--; loadList(status); } })));
  if (d.more) items.push(el("li", {}, el("a", { href: "#", text: "→", onclick: (e) => { e.preventDefault(); pages[status]++; loadList(status); } })));
  box.replaceChildren(...items);
}
// 回到我的座位: the seats this browser holds (localStorage) at tables still being played, asked for
// by id (they may be on any page of the lists), also with conditional requests
async function loadMine() {
  const saved = savedSeats();
  let live = [];
  if (saved.length) {
    const ids = saved.slice(0, 20).map(x => Number(x.id)).filter(Number.isInteger).join(",");
    // without a status: the open and the live ones (a table waiting for players is open, not live)
    const r = await fetch(`/api/tables?ids=${ids}`, { cache: "no-cache" });
    if (!r.ok) return;
    const d = await r.json();
    live = d.open.concat(d.live);
  }
  const liveIds = new Set(live.map(x => x.id));
  const mine = saved.filter(x => liveIds.has(x.id));
  const box = document.getElementById("mine");
  box.hidden = !mine.length;
  document.getElementById("my-seats").replaceChildren(...mine.map(x => el("li", {}, `#${x.id} ${x.name} `,
    el("a", { class: "button primary back-seat", href: `/t/${x.id}/${x.token}`, text: t("back_seat") }))));
}
function refresh() { loadMine(); loadList("open"); loadList("live"); }
refresh(); setInterval(refresh, 5000);
// a server on read-only storage serves history and replays; it says here why no table can be played
// and a fault found in the records database's files (the SQLite WAL deleted under it: issue 34)
fetch("/api/server").then(r => r.json()).then(info => {
  if (info.records_problem) {
    document.querySelector("main").prepend(el("section", { class: "card notice", id: "records-problem", role: "alert" },
      t("records_problem", info.records_problem)));
  }
  if (!info.read_only) return;
  const banner = el("section", { class: "card notice", id: "read-only", role: "status" }, info.read_only);
  document.querySelector("main").prepend(banner);
  document.getElementById("create-btn").disabled = true;
}).catch(() => {});
