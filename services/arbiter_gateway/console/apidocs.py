"""The API's docs page (`/docs`: Swagger UI over `/openapi.json`), served with Swagger
UI's own files from the `swagger-ui-bundle-v2` package instead of a CDN: the venue has no
internet, and no page of the gateway loads anything from elsewhere."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from swagger_ui_bundle import swagger_ui_path

DOCS_STATIC = "/docs/static"


def add_api_docs(app: FastAPI) -> None:
    app.mount(DOCS_STATIC, StaticFiles(directory=str(swagger_ui_path)), name="docs-static")

    @app.get("/docs", response_class=HTMLResponse, include_in_schema=False)
    async def docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url="/openapi.json", title="Arbiter gateway API",
            swagger_js_url=f"{DOCS_STATIC}/swagger-ui-bundle.js",
            swagger_css_url=f"{DOCS_STATIC}/swagger-ui.css",
            swagger_favicon_url=f"{DOCS_STATIC}/favicon-32x32.png")
