"""The console's pages: HTML shells rendered with Jinja2 and the script and style they
load, all from this package. A page holds no game data: its script logs in (or takes a
seat's or a spectator's token), keeps the token in the tab's session storage and reads
the JSON API with it, so the server, not the page, decides what a reader may see.

Nothing on a page points outside the gateway (no CDN, no fonts, no analytics): the only
outside addresses are CR rule links, and only when `ARBITER_CR_BASE` is set.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from arbiter_runtime.audit import valid_game_id

HERE = Path(str(files("arbiter_gateway.console")))
TEMPLATES = Jinja2Templates(directory=str(HERE / "templates"))
STATIC = HERE / "static"
#: security headers: the page may load only the gateway's own script, style and images
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; "
       "form-action 'self'")


def _page(request: Request, name: str, **context: object) -> HTMLResponse:
    response = TEMPLATES.TemplateResponse(request, name, {"static": "/console/static",
                                                         **context})
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


def add_console_pages(app: FastAPI) -> None:
    app.mount("/console/static", StaticFiles(directory=str(STATIC)), name="console-static")

    @app.get("/console", response_class=HTMLResponse, include_in_schema=False)
    async def games_page(request: Request) -> HTMLResponse:
        return _page(request, "games.html", title="Games")

    @app.get("/console/games/{game_id}", response_class=HTMLResponse,
             include_in_schema=False)
    async def game_page(request: Request, game_id: str) -> HTMLResponse:
        if not valid_game_id(game_id):
            raise HTTPException(404, "no such game")
        return _page(request, "game.html", title=game_id, game_id=game_id)
