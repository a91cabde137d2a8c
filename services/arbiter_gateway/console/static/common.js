// Shared by the console's pages: the token (this tab's session storage), the JSON API,
// and small DOM helpers. Every read goes through the gateway with the token; the server
// decides what it may see.
const KEY = "arbiter-console-token";

export function token() { return sessionStorage.getItem(KEY); }

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") node.textContent = v; else node.setAttribute(k, String(v));
  }
  for (const c of children.flat()) if (c) node.append(c);
  return node;
}

export class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

export async function api(path, params = {}) {
  const url = new URL(path, location.origin);
  for (const [k, v] of Object.entries(params)) {
    if (v === null || v === undefined || v === "") continue;
    for (const one of Array.isArray(v) ? v : [v]) url.searchParams.append(k, one);
  }
  const r = await fetch(url, { headers: { Authorization: `Bearer ${token()}` } });
  const body = await r.json().catch(() => ({}));
  if (r.status === 401) { sessionStorage.removeItem(KEY); showLogin("please log in again"); }
  if (!r.ok) throw new ApiError(r.status, body.error || r.statusText);
  return body;
}

// POST a JSON body; the answer's JSON (ApiError with the server's reason if refused).
export async function apiPost(path, body) {
  const r = await fetch(new URL(path, location.origin), {
    method: "POST",
    headers: { Authorization: `Bearer ${token()}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = await r.json().catch(() => ({}));
  if (!r.ok) throw new ApiError(r.status, answer.error || r.statusText);
  return answer;
}

function payload(t) {
  try {
    return JSON.parse(atob(t.split(".")[0].replace(/-/g, "+").replace(/_/g, "/")));
  } catch { return {}; }
}

export function principal() {
  const t = token();
  if (!t) return null;
  const p = payload(t);
  return { role: p.r, name: p.u, game: p.g };
}

function showLogin(message) {
  document.getElementById("main").hidden = true;
  document.getElementById("login").hidden = false;
  document.getElementById("login-error").textContent = message || "";
}

// Runs `start` once the tab has a token (after a login if it has none).
export function withLogin(start) {
  const loginForm = document.getElementById("login-form");
  const tokenForm = document.getElementById("token-form");
  const ready = () => {
    const p = principal();
    document.getElementById("who").textContent = p ? `${p.role}: ${p.name}` : "";
    document.getElementById("logout").hidden = !p;
    document.getElementById("login").hidden = true;
    document.getElementById("main").hidden = false;
    start(p);
  };
  loginForm.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const f = new FormData(loginForm);
    const basic = btoa(`${f.get("name")}:${f.get("password")}`);
    const r = await fetch("/auth/token", {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Basic ${basic}` },
      body: JSON.stringify({ role: f.get("role") }),
    });
    const body = await r.json().catch(() => ({}));
    if (!r.ok) { showLogin(body.error || "could not log in"); return; }
    sessionStorage.setItem(KEY, body.token);
    ready();
  });
  tokenForm.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const t = new FormData(tokenForm).get("token").trim();
    if (!t) return;
    sessionStorage.setItem(KEY, t);
    ready();
  });
  document.getElementById("logout").addEventListener("click", () => {
    sessionStorage.removeItem(KEY);
    location.reload();
  });
  if (token()) ready(); else showLogin();
}
