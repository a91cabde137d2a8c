"""The client side of the staff credentials: a judge's and an organiser's name and
password, for `arbiter play --distributed` and the tests.

`arbiter up` (`launcher.Cluster`) makes a random pair for the local cluster, gives the
gateway only their hashes (`ARBITER_JUDGES`, `ARBITER_ORGANISERS`, `environment`) and
writes the passwords to `<run dir>/credentials.json`, readable by its owner only. A
client reads them from there, or from `ARBITER_JUDGE_LOGIN` / `ARBITER_ORGANISER_LOGIN`
(`name:password`).
"""

from __future__ import annotations

import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from arbiter_gateway.passwords import hash_password

FILE = "credentials.json"


@dataclass(frozen=True)
class Login:
    name: str
    password: str = ""

    @classmethod
    def parse(cls, text: str) -> Login:
        name, sep, password = text.partition(":")
        if not sep or not name:
            raise ValueError("a login reads name:password")
        return cls(name, password)


@dataclass(frozen=True)
class StaffLogins:
    judge: Login
    organiser: Login

    @classmethod
    def generate(cls) -> StaffLogins:
        return cls(Login("judge", secrets.token_urlsafe(18)),
                   Login("organiser", secrets.token_urlsafe(18)))

    def environment(self) -> dict[str, str]:
        """The gateway's settings for these logins (hashes only)."""
        return {"ARBITER_JUDGES": f"{self.judge.name}={hash_password(self.judge.password)}",
                "ARBITER_ORGANISERS": f"{self.organiser.name}="
                                      f"{hash_password(self.organiser.password)}"}

    def write(self, run_dir: Path) -> Path:
        path = run_dir / FILE
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump({"judge": [self.judge.name, self.judge.password],
                       "organiser": [self.organiser.name, self.organiser.password]}, f)
        return path

    @classmethod
    def load(cls, run_dir: Path | None = None) -> StaffLogins:
        """From the environment, else from `run_dir` (default `.arbiter`)."""
        judge, organiser = (os.environ.get("ARBITER_JUDGE_LOGIN"),
                            os.environ.get("ARBITER_ORGANISER_LOGIN"))
        if judge and organiser:
            return cls(Login.parse(judge), Login.parse(organiser))
        path = (run_dir or Path(".arbiter")) / FILE
        try:
            data = json.loads(path.read_text())
            return cls(Login(*data["judge"]), Login(*data["organiser"]))
        except (OSError, ValueError, KeyError, TypeError):
            raise SystemExit(f"no staff logins: set ARBITER_JUDGE_LOGIN and "
                             f"ARBITER_ORGANISER_LOGIN (name:password) or run `arbiter "
                             f"up` with this run dir ({path})") from None
