"""The judge console (issue 16): a web page served by the gateway to audit any game,
event by event, with the board and the rule behind each event.

- `pages.py`: the HTML pages (Jinja2 templates) and their script and style, all shipped
  in this package (`templates/`, `static/`): no CDN, nothing from outside the gateway;
- `routes.py`: the JSON API the pages read (`/console/api/...`, bearer tokens, the roles
  enforced here);
- `apidocs.py`: the API's docs page (`/docs`), Swagger UI from a package, not a CDN;
- `reads.py`: what it reads from the store; `history.py`: states at any event from
  checkpoints and snapshots, and the index behind the timeline's filters.
"""

from __future__ import annotations

from fastapi import FastAPI

from arbiter_gateway.app import Gateway
from arbiter_gateway.console.apidocs import add_api_docs
from arbiter_gateway.console.pages import add_console_pages
from arbiter_gateway.console.reads import ConsoleReads
from arbiter_gateway.console.routes import add_console_api


def add_console(app: FastAPI, gw: Gateway) -> ConsoleReads:
    reads = ConsoleReads(gw.reads.store, gw.judges.entries)
    add_console_api(app, gw, reads)
    add_console_pages(app)
    add_api_docs(app)
    return reads


__all__ = ["add_console"]
