// The board at one event, drawn from the reader's view (arbiter_core.views.seat): the
// seats around a table in seating order (teams, turn markers, who is active and who holds
// priority), then each player's zones, then the stack of every turn marker.
import { el, svg } from "./common.js";

const TEAM_COLOURS = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1",
  "#76b7b2", "#edc948", "#ff9da7", "#9c755f", "#bab0ac"];

function teamColour(teams, team) {
  if (!teams.has(team)) teams.set(team, TEAM_COLOURS[teams.size % TEAM_COLOURS.length]);
  return teams.get(team);
}

function table(view) {
  const n = view.players.length;
  const w = 760, h = n > 12 ? 520 : 340, cx = w / 2, cy = h / 2;
  const rx = w / 2 - 60, ry = h / 2 - 40, r = n > 40 ? 9 : n > 12 ? 14 : 26;
  const teams = new Map();
  const holders = new Map(view.markers.map((m) => [m.holder, m]));
  const priority = new Set(view.markers.map((m) => m.pending.player).filter(Boolean));
  const g = svg("svg", { viewBox: `0 0 ${w} ${h}`, class: "table", role: "img",
    "aria-label": `table of ${n} seats` });
  g.append(svg("ellipse", { cx, cy, rx: rx - r - 10, ry: ry - r - 10, class: "felt" }));
  g.append(svg("text", { x: cx, y: cy, class: "table-label", "text-anchor": "middle",
    text: `${view.variant} · turn ${view.markers.map((m) => m.turn).join("/") || "-"}` }));
  view.players.forEach((p, i) => {
    const a = -Math.PI / 2 + (2 * Math.PI * i) / n;
    const x = cx + rx * Math.cos(a), y = cy + ry * Math.sin(a);
    const m = holders.get(p.name);
    const seat = svg("g", { class: `seat${m ? " active" : ""}${p.in_game ? "" : " out"}`,
      "data-seat": p.name, transform: `translate(${x.toFixed(1)},${y.toFixed(1)})` });
    seat.append(svg("title", { text: `${p.name} (team ${p.team}) life ${p.life}` +
      (p.poison ? ` poison ${p.poison}` : "") + (m ? ` · active, marker ${m.number}` : "") }));
    seat.append(svg("circle", { r, fill: teamColour(teams, p.team) }));
    if (m) seat.append(svg("circle", { r: r + 4, class: "marker-ring" }));
    if (priority.has(p.name)) seat.append(svg("circle", { r: r + 7, class: "priority-ring" }));
    if (n <= 40) {
      seat.append(svg("text", { y: -r - 4, "text-anchor": "middle", class: "seat-name",
        text: p.name }));
      seat.append(svg("text", { y: 4, "text-anchor": "middle", class: "seat-life",
        text: String(p.life) }));
    }
    g.append(seat);
  });
  return g;
}

function cards(list, cls) {
  return el("ul", { class: `cards ${cls}` },
    (list || []).map((c) => el("li", { "data-id": c.id, title: `#${c.id}` }, c.name)));
}

function permanent(p, byId) {
  const bits = [];
  if (p.power !== null && p.power !== undefined) bits.push(`${p.power}/${p.toughness}`);
  if (p.damage) bits.push(`${p.damage} damage`);
  for (const [k, v] of Object.entries(p.counters)) bits.push(`${v}× ${k}`);
  if (p.attached_to !== null) bits.push(`on ${byId.get(p.attached_to)?.name ?? "?"} #${p.attached_to}`);
  if (p.controller !== p.owner) bits.push(`owner ${p.owner}`);
  if (p.token) bits.push("token");
  if (p.sick) bits.push("summoning sick");
  return el("li", { class: `permanent${p.tapped ? " tapped" : ""}`, "data-id": p.id,
    title: `#${p.id}${p.tapped ? " (tapped)" : ""}` },
  el("span", { class: "name" }, p.name), bits.length ? el("small", {}, bits.join(" · ")) : null);
}

function zone(label, count, body) {
  return el("div", { class: "zone" }, el("h4", {}, `${label}${count === null ? "" : ` (${count})`}`), body);
}

function playerPanel(view, p, byId, teams) {
  const mine = view.battlefield.filter((x) => x.controller === p.name);
  const m = view.markers.find((x) => x.holder === p.name);
  teamColour(teams, p.team);
  const team = [...teams.keys()].indexOf(p.team) % TEAM_COLOURS.length;
  return el("article", { class: `player team-${team}${p.in_game ? "" : " out"}`,
    id: `player-${p.name}`, "data-player": p.name },
  el("h3", {}, p.name,
    p.team !== p.name ? el("small", {}, ` team ${p.team}`) : null,
    m ? el("span", { class: "badge active" }, `active · marker ${m.number}`) : null,
    p.won ? el("span", { class: "badge" }, "won") : null,
    p.lost ? el("span", { class: "badge lost" }, "lost") : null),
  el("p", { class: "stats" }, `life ${p.life}`, p.poison ? ` · poison ${p.poison}` : "",
    ` · hand ${p.hand_size} · library ${p.library_size}`, p.mana ? ` · mana ${p.mana}` : ""),
  zone("battlefield", mine.length, el("ul", { class: "cards battlefield" },
    mine.map((x) => permanent(x, byId)))),
  p.hand ? zone("hand", p.hand.length, cards(p.hand, "hand")) : null,
  p.library ? zone("library, top first", p.library.length,
    cards(p.library.slice(0, 10), "library")) : null,
  zone("graveyard", p.graveyard.length, cards(p.graveyard, "graveyard")),
  p.exile.length ? zone("exile", p.exile.length, cards(p.exile, "exile")) : null,
  p.command.length ? zone("command", p.command.length, cards(p.command, "command")) : null);
}

function pendingText(p) {
  if (p.kind === "priority") return `${p.player} holds priority`;
  if (p.kind === "decision") {
    return `${p.player} decides ${p.decision}` + (p.rule ? ` (CR ${p.rule})` : "") +
      (p.hidden_options ? ` · ${p.hidden_options} hidden options` : "");
  }
  if (p.kind === "waiting") return `${p.player} waits to begin their turn`;
  return `engine work: ${p.work}` + (p.player ? `, then ${p.player}` : "");
}

function target(t) {
  if (t.hidden) return "a hidden card";
  return t.player ?? `${t.name ?? "?"} #${t.id}`;
}

function markerPanel(m) {
  return el("article", { class: "marker", "data-marker": m.number },
    el("h3", {}, `Turn marker ${m.number}: ${m.holder}`,
      el("small", {}, ` turn ${m.turn} · ${m.step}`)),
    el("p", { class: "pending" }, pendingText(m.pending)),
    m.passed.length ? el("p", {}, `passed: ${m.passed.join(", ")}`) : null,
    m.attacks.length ? el("p", {}, "attacks: " + m.attacks.map(([a, d]) => `#${a} → ${d}`).join(", ")) : null,
    m.blocks.length ? el("p", {}, "blocks: " + m.blocks.map(([b, a]) => `#${b} blocks #${a}`).join(", ")) : null,
    el("h4", {}, `stack (${m.stack.length}, top first)`),
    el("ol", { class: "stack" }, m.stack.map((it) => el("li", { "data-id": it.id },
      `${it.name}${it.kind === "spell" ? "" : ` (${it.kind} ability)`} — ${it.controller}`,
      it.targets.flat().length ? ` → ${it.targets.flat().map(target).join(", ")}` : "",
      it.x ? ` X=${it.x}` : ""))));
}

export function renderBoard(root, view) {
  const byId = new Map(view.battlefield.map((p) => [p.id, p]));
  const teams = new Map();
  view.players.forEach((p) => teamColour(teams, p.team));
  root.replaceChildren(
    el("div", { class: "table-wrap" }, table(view)),
    el("p", { class: "viewer" }, `as ${view.viewer}${view.seat ? ` ${view.seat}` : ""}` +
      ` · event ${view.version}` + (view.game_over ? " · game over" : "") +
      (view.seed !== null ? ` · seed ${view.seed}` : "")),
    el("section", { class: "markers" }, view.markers.map(markerPanel)),
    el("section", { class: "players" }, view.players.map((p) => playerPanel(view, p, byId, teams))));
}
