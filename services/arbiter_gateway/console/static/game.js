// One game: a timeline to scrub or step (slider, arrow keys), filtered by kind, rule,
// player and card; the board at the selected event; "Why?" for an event's cause chain;
// the hash chain's status; a shareable link; export as scenario; live updates over the
// gateway's WebSocket; for judges, the correction ("back up to event N").
import { api, apiPost, el, principal, token, withLogin } from "./common.js";
import { renderBoard } from "./board.js";

const PAGE = 100;
const root = document.getElementById("game");
const gameId = root.dataset.game;
const $ = (id) => document.getElementById(id);
const s = { at: 0, total: 0, offset: 0, matching: 0, filters: {}, seq: 0, role: null,
  crBase: null, follow: false, over: false, connected: false };

function ruleLink(rule, url) {
  if (!rule) return "";
  if (url) return el("a", { href: url, target: "_blank", rel: "noopener noreferrer" }, rule);
  if (s.crBase) {
    const href = s.crBase.includes("{rule}") ? s.crBase.replace("{rule}", rule)
      : `${s.crBase.replace(/\/$/, "")}/${rule}`;
    return el("a", { href, target: "_blank", rel: "noopener noreferrer" }, rule);
  }
  return rule;
}

function filtered() { return Object.values(s.filters).some((v) => v && v.length); }

function writeUrl() {
  const u = new URL(location.href);
  u.search = "";
  u.searchParams.set("at", s.at);
  for (const [k, v] of Object.entries(s.filters)) if (v) u.searchParams.set(k, v);
  history.replaceState(null, "", u);
  $("share-url").value = u.href;
}

function showError(where, e) { $(where).replaceChildren(el("p", { class: "error" }, `error: ${e.message}`)); }

async function showBoard(live = false) {
  const seq = ++s.seq;
  try {
    const b = await api(`/console/api/games/${encodeURIComponent(gameId)}/board`,
      { at: s.at, follow: live ? "true" : null });
    if (seq !== s.seq) return; // a later event was asked for meanwhile
    setTotal(b.total);
    const e = b.event;
    $("event").replaceChildren(e ? el("p", {},
      el("strong", {}, `#${e.version} ${e.type}`), " ", e.summary ?? "",
      e.actor ? ` · ${e.actor}` : "", " · CR ", ruleLink(e.rule),
      s.role === "judge" ? el("button", { type: "button", class: "why-btn", onclick: () => why(e.version) }, "Why?") : null)
      : el("p", {}, "before the first event"));
    renderBoard($("board"), b.view);
    if (b.at === b.total) s.over = b.view.game_over;
    if (s.connected) $("live").textContent = s.over ? "finished" : "● live";
    root.dataset.shownAt = String(b.at);
  } catch (err) { if (seq === s.seq) showError("board", err); }
}

function setTotal(total) {
  s.total = Math.max(s.total, total);
  $("slider").max = s.total;
  $("at").max = s.total;
  $("total").textContent = `of ${s.total}`;
}

async function why(version) {
  const box = $("why");
  box.hidden = false;
  box.replaceChildren(el("p", {}, "…"));
  try {
    const w = await api(`/console/api/games/${encodeURIComponent(gameId)}/why`, { at: version });
    box.replaceChildren(el("h3", {}, `Why event ${version}?`), el("ol", { class: "chain-list" },
      w.chain.map((c) => el("li", { class: `cause ${c.kind}`, "data-rule": c.rule },
        el("strong", {}, c.kind === "event" ? `#${c.version} ${c.type}` : c.kind === "work"
          ? `engine work ${c.type}` : `command ${c.type}`),
        c.summary ? ` — ${c.summary}` : "", c.actor ? ` · ${c.actor}` : "",
        c.rule ? el("span", { class: "rule" }, " · CR ", ruleLink(c.rule, c.rule_url)) : ""))));
  } catch (e) { showError("why", e); }
}

async function loadTimeline() {
  try {
    const t = await api(`/console/api/games/${encodeURIComponent(gameId)}/timeline`,
      { offset: s.offset, limit: PAGE, ...s.filters,
        kind: (s.filters.kind || "").split(",").map((k) => k.trim()).filter(Boolean) });
    setTotal(t.total);
    s.matching = t.matching;
    const body = $("timeline").querySelector("tbody");
    body.replaceChildren(...t.rows.map((r) => el("tr", {
      "data-version": r.version,
      class: [r.version === s.at ? "selected" : "", r.type === "GameCorrected" ? "correction" : ""]
        .join(" ").trim() || null,
      onclick: () => select(r.version) },
    el("td", { class: "num" }, r.version), el("td", {}, r.type), el("td", {}, r.summary ?? ""),
    el("td", {}, r.actor ?? ""), el("td", {}, ruleLink(r.rule)),
    el("td", {}, s.role === "judge" ? el("button", { type: "button", class: "why-btn",
      onclick: (ev) => { ev.stopPropagation(); why(r.version); } }, "Why?") : ""))));
    const last = Math.min(t.offset + t.rows.length, t.matching);
    $("page-info").textContent = `${t.matching ? t.offset + 1 : 0}-${last} of ${t.matching}` +
      (filtered() ? ` matching (${t.indexed} of ${t.total} events read)` : "") +
      (t.error ? ` · ${t.error}` : "");
    if (filtered() && !t.complete) setTimeout(loadTimeline, 700);
  } catch (e) { showError("page-info", e); }
}

function select(n, { page = true, live = false } = {}) {
  s.at = Math.max(0, Math.min(n, s.total || n));
  $("slider").value = s.at;
  $("at").value = s.at;
  if (s.role === "judge" && s.at > 0) $("backup").elements.at.value = s.at;
  writeUrl();
  for (const tr of $("timeline").querySelectorAll("tr[data-version]")) {
    tr.classList.toggle("selected", Number(tr.dataset.version) === s.at);
  }
  if (page && !filtered() && s.at > 0) {
    const offset = Math.floor((s.at - 1) / PAGE) * PAGE;
    if (offset !== s.offset) { s.offset = offset; loadTimeline(); }
  }
  showBoard(live);
}

async function watchProgress() {
  try {
    const p = await api(`/console/api/games/${encodeURIComponent(gameId)}/progress`);
    $("progress").hidden = p.complete;
    $("progress-bar").max = Math.max(1, p.total);
    $("progress-bar").value = p.indexed;
    $("progress-text").textContent = `${p.indexed} of ${p.total} events`;
    if (!p.complete) setTimeout(watchProgress, 500);
  } catch { /* the board works without the index */ }
}

async function chainStatus() {
  if (s.role !== "judge" && s.role !== "organiser") { $("chain").hidden = true; return; }
  try {
    const c = await api(`/console/api/games/${encodeURIComponent(gameId)}/chain`);
    $("chain").textContent = (c.verified ? `chain verified (${c.events} events)`
      : `chain BROKEN at event ${c.broken_at ?? "?"}: ${c.problems[0] ?? ""}`) +
      (c.corrections || []).map((x) => ` · ${x}`).join("");
    $("chain").className = `chain ${c.verified ? "ok" : "broken"}`;
  } catch (e) { $("chain").textContent = `chain: ${e.message}`; }
}

function live() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/games/${encodeURIComponent(gameId)}/stream`);
  ws.onopen = () => ws.send(JSON.stringify({ token: token() }));
  ws.onmessage = (m) => {
    const msg = JSON.parse(m.data);
    if (msg.kind === "hello") {
      s.connected = true;
      $("live").textContent = s.over ? "finished" : "● live";
    }
    if (msg.kind !== "update") return;
    const before = s.total;
    setTotal(msg.version);
    if (s.total === before) return;
    if (s.follow) select(s.total, { live: true });
    else if (!filtered() && s.offset + PAGE >= before) loadTimeline();
  };
  ws.onclose = () => {
    s.connected = false;
    $("live").textContent = "";
    setTimeout(live, 3000);
  };
}

async function exportScenario() {
  const box = $("scenario");
  box.hidden = false;
  try {
    const x = await api(`/console/api/games/${encodeURIComponent(gameId)}/scenario`, { at: s.at });
    box.textContent = x.yaml;
  } catch (e) { box.textContent = `error: ${e.message}`; }
}

// A judge backs the game up to event N: a correction event is appended (history kept),
// and the game goes on from the state at N (the server checks the role).
async function backup(ev) {
  ev.preventDefault();
  const f = new FormData($("backup"));
  const out = $("backup-result");
  out.textContent = "…";
  try {
    const c = await apiPost(`/console/api/games/${encodeURIComponent(gameId)}/corrections`,
      { at: Number(f.get("at")), reason: String(f.get("reason") || "").trim() });
    out.textContent = `event ${c.version}: backed up to event ${c.at} by ${c.judge}`;
    setTotal(c.version);
    s.offset = Math.floor((c.version - 1) / PAGE) * PAGE;
    select(c.version, { page: false });
    loadTimeline();
    chainStatus();
  } catch (e) { out.textContent = `refused: ${e.message}`; }
}

function wire() {
  $("slider").addEventListener("input", () => select(Number($("slider").value)));
  $("at").addEventListener("change", () => select(Number($("at").value)));
  $("first").onclick = () => select(0);
  $("prev").onclick = () => select(s.at - 1);
  $("next").onclick = () => select(s.at + 1);
  $("last").onclick = () => select(s.total);
  $("follow").onchange = () => { s.follow = $("follow").checked; if (s.follow) select(s.total); };
  $("share").onclick = () => { $("share-url").hidden = false; $("share-url").select(); };
  $("export").onclick = exportScenario;
  $("backup").hidden = s.role !== "judge";
  $("backup").addEventListener("submit", backup);
  $("page-prev").onclick = () => { s.offset = Math.max(0, s.offset - PAGE); loadTimeline(); };
  $("page-next").onclick = () => {
    if (s.offset + PAGE < s.matching) { s.offset += PAGE; loadTimeline(); }
  };
  const form = $("filters");
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const f = new FormData(form);
    s.filters = Object.fromEntries(["kind", "rule", "player", "card"]
      .map((k) => [k, String(f.get(k) || "").trim()]).filter(([, v]) => v));
    s.offset = 0;
    writeUrl();
    loadTimeline();
  });
  $("clear").onclick = () => { s.filters = {}; s.offset = 0; writeUrl(); setTimeout(() => select(s.at), 0); loadTimeline(); };
  document.addEventListener("keydown", (ev) => {
    if (ev.target instanceof HTMLInputElement && ev.target.type !== "range") return;
    if (ev.target instanceof HTMLSelectElement) return;
    const step = ev.shiftKey ? 10 : 1;
    const keys = { ArrowLeft: -step, ArrowRight: step, ArrowUp: -step, ArrowDown: step };
    if (ev.key in keys) { ev.preventDefault(); select(s.at + keys[ev.key]); }
    if (ev.key === "Home") { ev.preventDefault(); select(0); }
    if (ev.key === "End") { ev.preventDefault(); select(s.total); }
  });
}

async function start(p) {
  s.role = p?.role;
  const q = new URLSearchParams(location.search);
  for (const k of ["kind", "rule", "player", "card"]) if (q.get(k)) s.filters[k] = q.get(k);
  const form = $("filters");
  for (const [k, v] of Object.entries(s.filters)) if (form.elements[k]) form.elements[k].value = v;
  try { s.crBase = (await api("/console/api/config")).cr_base; } catch { /* unlinked */ }
  wire();
  // the board first: the last event unless the link names one
  s.at = q.has("at") ? Number(q.get("at")) : -1;
  const b = await api(`/console/api/games/${encodeURIComponent(gameId)}/board`,
    s.at >= 0 ? { at: s.at } : {}).catch((e) => { showError("board", e); return null; });
  if (!b) return;
  setTotal(b.total);
  const players = b.view.players.map((x) => x.name);
  form.elements.player.append(...players.map((n) => el("option", { value: n }, n)));
  if (s.filters.player) form.elements.player.value = s.filters.player;
  s.offset = s.at > 0 ? Math.floor((b.at - 1) / PAGE) * PAGE : Math.floor(Math.max(0, b.at - 1) / PAGE) * PAGE;
  if (filtered()) s.offset = 0;
  s.at = b.at;
  select(b.at, { page: false });
  loadTimeline();
  chainStatus();
  if (principal()) { watchProgress(); live(); }
}

withLogin(start);
