// 对局记录 (issue 38): the stored games one page at a time, filtered by kind — web tables, room matches,
// terminal games, and the bot runs (simulate, arena), hidden unless chosen — with this browser's own
// games (the seats it remembers, localStorage) first or alone.  A room's matches are listed under
// their room with the members' names.  The choice of kinds is remembered by the browser (a link's
// ?kinds=…&mine=1 goes before it).
"use strict";
document.getElementById("nav").append(navBar("history"));
const HW = {
  zh: { show: "显示", kind_room: "房间对局", mine_only: "只看我的", mine: "我的", page: "第{0}页", prev_page: "上一页",
    next_page: "下一页", room: "房间「{0}」", match: "第{0}场", bots_hidden: "机器人模拟和擂台默认不显示，勾选即可查看" },
  en: { show: "Show", kind_room: "rooms", mine_only: "Mine only", mine: "mine", page: "Page {0}", prev_page: "Previous",
    next_page: "Next", room: "Room “{0}”", match: "Match {0}", bots_hidden: "Bot simulations and arena runs are hidden unless ticked" },
}[LANG];
const hw = (k, ...a) => a.reduce((s, x, i) => s.replace(`{${i}}`, x), HW[k]);
const KINDS = ["web", "room", "play", "simulate", "arena"];
const DEFAULT = ["web", "room", "play"]; // the bot runs are hidden unless chosen
const PAGE = 10;
const URLQ = new URLSearchParams(location.search); // /history?kinds=simulate,arena&mine=1: a link's own choice
function savedKinds() {
  if (URLQ.has("kinds")) return URLQ.get("kinds").split(",").filter(x => KINDS.includes(x));
  try { const k = JSON.parse(localStorage.getItem("shangrao-history-kinds")); if (Array.isArray(k)) return k.filter(x => KINDS.includes(x)); } catch (e) { /* default */ }
  return DEFAULT;
}
const state = { kinds: savedKinds(), mineOnly: URLQ.has("mine") ? URLQ.get("mine") === "1" : localStorage.getItem("shangrao-history-mine") === "1", page: 0 };
const kindName = k => k === "room" ? HW.kind_room : gameKind(k);

const form = document.getElementById("filter");
form.append(el("span", { class: "label", text: hw("show") + "：" }),
  ...KINDS.map(k => el("label", { class: "kind-pick" }, el("input", { type: "checkbox", name: "kind", value: k, checked: state.kinds.includes(k) }), kindName(k))),
  el("label", { class: "kind-pick mine" }, el("input", { type: "checkbox", id: "mine-only", checked: state.mineOnly }), hw("mine_only")),
  el("small", { class: "note", text: hw("bots_hidden") }));
form.addEventListener("change", () => {
  state.kinds = [...form.querySelectorAll("input[name=kind]:checked")].map(i => i.value);
  state.mineOnly = document.getElementById("mine-only").checked;
  state.page = 0;
  localStorage.setItem("shangrao-history-kinds", JSON.stringify(state.kinds));
  localStorage.setItem("shangrao-history-mine", state.mineOnly ? "1" : "0");
  load();
});

// players in short words, a repeated one counted: "贪心 ×4"; at a room's match the members' names
function playersText(g) {
  const names = g.players.map((p, i) => (g.names && g.names[i]) || t((p.kind || p) + "_s"));
  return names.every(n => n === names[0]) ? `${names[0]} ×${names.length}` : names.join("、");
}
function statusText(g) {
  const end = g.end_reason === "dissolved" ? (LANG === "zh" ? `（${label("manners", "end_dissolved")}）` : ` (${label("manners", "end_dissolved")})`) : "";
  return t(g.status) + end;
}
const HEADS = ["game", "date", "players", "hands", "status", "score", ""];
function row(g) {
  const title = g.room ? `#${g.id} ${hw("match", g.room.match)}` : `#${g.id} ${g.name || gameKind(g.kind)}`;
  const cells = [title, new Date(g.created).toLocaleString(LANG === "zh" ? "zh-CN" : "en-GB"), playersText(g),
    g.hands_played, statusText(g), g.scores.map(fmtPoints).join(" ")];
  const tds = cells.map((c, i) => el("td", { "data-label": t(HEADS[i]), text: c }));
  if (g.mine) tds[0].append(" ", el("span", { class: "badge mine-badge", text: hw("mine") }));
  return el("tr", { "data-game": g.id, "data-kind": g.room ? "room" : g.kind, class: g.room ? "in-room" : "" }, ...tds,
    el("td", { class: "go" }, el("a", { class: "button", href: `/replay/${g.id}`, text: t("replay") }), " ",
      g.hands_played ? el("a", { class: "button review-link", href: `/replay/${g.id}?review=1`,
        text: g.review ? t("reviewing_s", g.review.done, g.review.total) : t("review") }) : null));
}
function roomHead(g) { // a room's matches under their room: its name and its members
  const names = (g.names || []).filter(n => n).join("、");
  return el("tr", { class: "room-head", "data-room": g.room.id },
    el("td", { colspan: 7 }, el("b", { text: hw("room", g.room.name) }), names ? ` · ${names}` : ""));
}
async function load() {
  const mine = [...new Set(savedSeats().map(x => Number(x.id)).filter(Number.isInteger))].slice(0, 50);
  const q = new URLSearchParams({ kinds: state.kinds.join(","), mine: mine.join(","), mine_only: state.mineOnly,
    limit: PAGE + 1, offset: state.page * PAGE });
  const tb = document.getElementById("games");
  let rows;
  try {
    const r = await fetch(`/api/games?${q}`);
    if (!r.ok) throw r;
    rows = await r.json();
  } catch (e) { pageError(document.querySelector("main"), t("cannot_read")); return; }
  const more = rows.length > PAGE;
  rows = rows.slice(0, PAGE);
  const body = el("tbody");
  let room = null;
  for (const g of rows) {
    const here = g.room ? g.room.id : null;
    if (here !== null && here !== room) body.append(roomHead(g));
    room = here;
    body.append(row(g));
  }
  if (!rows.length) body.append(el("tr", {}, el("td", { colspan: 7, text: t("none") })));
  tb.replaceChildren(el("thead", {}, el("tr", {}, ...HEADS.map(k => el("th", { text: t(k) })))), body);
  const go = (d) => (e) => { e.preventDefault(); state.page += d; load(); window.scrollTo(0, 0); };
  document.getElementById("pager").replaceChildren(
    el("button", { class: "button", id: "prev-page", disabled: state.page === 0, onclick: go(-1), text: hw("prev_page") }),
    el("span", { id: "page-no", text: hw("page", state.page + 1) }),
    el("button", { class: "button", id: "next-page", disabled: !more, onclick: go(1), text: hw("next_page") }));
  clearTimeout(progressTimer);
  if (rows.some(g => g.review)) progressTimer = setTimeout(reviewProgress, 2000);
}
// a game under review (a web match is reviewed when it ends): its 复盘 button counts the hands done
let progressTimer = null;
async function reviewProgress() {
  let rows = null;
  try { const r = await fetch("/api/games"); rows = r.ok ? await r.json() : null; } catch (e) { rows = null; }
  if (!rows) return;
  for (const g of rows) {
    const a = document.querySelector(`tr[data-game="${g.id}"] a.review-link`);
    if (a) a.textContent = g.review ? t("reviewing_s", g.review.done, g.review.total) : t("review");
  }
  if (rows.some(g => g.review)) progressTimer = setTimeout(reviewProgress, 2000);
}
load();
