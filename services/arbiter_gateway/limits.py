"""Bounded cost per client: rate limits (429 with Retry-After) and a guard on request
bodies (413 over the size limit, 400 for JSON nested too deep), both before any route
parses anything.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from fastapi import HTTPException

MAX_DEPTH = 32  # nesting of a request's JSON (a game's creation needs 4)
MAX_KEYS = 100_000  # clients tracked per limit (least recently seen are forgotten)
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKET = bytes(b for b in range(256) if b not in b"[]{}")


class RateLimit:
    """A token bucket per key: `rate` a second, bursts of `burst`."""

    def __init__(self, what: str, rate: float, burst: float) -> None:
        self.what = what
        self.rate = rate
        self.burst = burst
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, key: str) -> float:
        """0 if allowed (and counted), else the seconds until it would be."""
        now = time.monotonic()
        with self._lock:
            tokens, last = self._buckets.pop(key, (self.burst, now))
            tokens = min(self.burst, tokens + (now - last) * self.rate)
            wait = 0.0 if tokens >= 1 else (1 - tokens) / self.rate
            self._buckets[key] = (tokens - 1 if wait == 0 else tokens, now)
            while len(self._buckets) > MAX_KEYS:
                self._buckets.popitem(last=False)
            return wait

    def check(self, key: str) -> None:
        """Raise 429 (with Retry-After) if `key` is over the limit."""
        wait = self.take(key)
        if wait > 0:
            raise HTTPException(429, f"too many {self.what}: try again in {wait:.1f} s",
                                headers={"Retry-After": str(max(1, round(wait + 0.5)))})


def too_deep(body: bytes, limit: int = MAX_DEPTH) -> bool:
    """Does the JSON text nest arrays and objects more than `limit` levels (up to twice
    that when they alternate) or leave a bracket unclosed? Strings are taken out, then
    everything but brackets; each of at most `limit` passes removes every innermost
    pair ("[]", "{}"). All of it runs in C, linear in the body: a bracket left means
    nesting the JSON parser would recurse into."""
    brackets = _STRING.sub(b"", body).translate(None, _NOT_BRACKET)
    run = re.compile(rb"[\[{]{%d}" % (limit + 1))  # that many openers in a row: too deep
    for _ in range(limit):
        if run.search(brackets):
            return True
        shorter = brackets.replace(b"[]", b"").replace(b"{}", b"")
        if len(shorter) == len(brackets):
            break
        brackets = shorter
    return bool(brackets)


Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class BodyGuard:
    """ASGI middleware: read an HTTP request's body up to its route's limit (413 past
    it), refuse JSON nested more than `MAX_DEPTH` deep (400), then hand the body on."""

    def __init__(self, app: ASGIApp, limit_for: Callable[[str, str], int]) -> None:
        self.app = app
        self.limit_for = limit_for

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope["method"], scope["path"])
        length = dict(scope.get("headers") or ()).get(b"content-length", b"")
        if length.isdigit() and int(length) > limit:
            await _error(send, 413, f"request body over {limit} bytes")
            return
        body = bytearray()
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            more = bool(message.get("more_body"))
            if len(body) > limit:
                await _error(send, 413, f"request body over {limit} bytes")
                return
        if too_deep(bytes(body)):
            await _error(send, 400, "malformed JSON: unbalanced or nested more than "
                                    f"{MAX_DEPTH} deep")
            return
        sent = False

        async def replay() -> MutableMapping[str, Any]:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": bytes(body), "more_body": False}

        await self.app(scope, replay, send)


async def _error(send: Send, status: int, reason: str) -> None:
    payload = json.dumps({"error": reason}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(payload)).encode())]})
    await send({"type": "http.response.body", "body": payload})
