// The games list: every game of the store, live and finished, with a filter.
import { api, el, withLogin } from "./common.js";

const form = document.getElementById("filter");
const body = document.querySelector("#games tbody");

async function load() {
  const f = new FormData(form);
  try {
    const data = await api("/console/api/games", { q: f.get("q"), status: f.get("status") });
    body.replaceChildren(...data.games.map((g) => el("tr", { "data-game": g.game_id },
      el("td", {}, el("a", { href: `/console/games/${encodeURIComponent(g.game_id)}` }, g.game_id)),
      el("td", {}, g.variant),
      el("td", {}, g.players.length > 8 ? `${g.players.length} players` : g.players.join(", ")),
      el("td", { class: `status ${g.status.replace(" ", "-")}` },
        g.status + (g.winners.length ? ` (won: ${g.winners.join(", ")})` : "")),
      el("td", { class: "num" }, g.events))));
    document.getElementById("games-count").textContent =
      `${data.games.length} of ${data.total} games`;
  } catch (e) {
    document.getElementById("games-count").textContent = `error: ${e.message}`;
  }
}

form.addEventListener("submit", (ev) => { ev.preventDefault(); load(); });
withLogin(() => load());
