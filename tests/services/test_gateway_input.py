"""Bad input at the gateway changes no state. Shape and auth errors: 4xx with a reason.
Rule violations: a CommandRejected reply citing the rule, in the game's audit stream
(judges only), never in the game stream."""

from __future__ import annotations

import httpx

from arbiter_runtime.audit import audit_stream

from .conftest import Runner
from .harness import System
from .helpers import auth, new_game, settle, staff


def test_bad_input_changes_nothing(run_on: Runner) -> None:
    async def scenario(system: System) -> None:
        gid = f"bad-{system.kind}"
        async with httpx.AsyncClient(base_url=system.base_url, timeout=30) as http:
            judge, seats = await new_game(http, gid, logins=system.logins)
            view = await settle(http, gid, judge)
            version = view["version"]
            holder = view["markers"][0]["pending"]["player"]
            other = next(s for s in seats if s != holder)
            url = f"/games/{gid}/commands?wait=10"

            async def expect(status: int, *, token: str | None, json: object = None,
                             content: bytes | None = None) -> str:
                headers = auth(token) if token else {}
                if content is not None:
                    headers["content-type"] = "application/json"
                    r = await http.post(url, headers=headers, content=content)
                else:
                    r = await http.post(url, headers=headers, json=json)
                assert r.status_code == status, r.text
                reason = r.json()["error"]
                assert reason
                return str(reason)

            good = {"command": {"type": "PassPriority", "player": holder}}
            await expect(401, token=None, json=good)
            await expect(401, token="not.a.token", json=good)
            forged = seats[holder][:-4] + ("AAAA" if not seats[holder].endswith("AAAA")
                                           else "BBBB")
            await expect(401, token=forged, json=good)
            assert "JSON" in await expect(400, token=seats[holder], content=b"{not json")
            await expect(422, token=seats[holder],
                         json={**good, "surprise": True})
            await expect(422, token=seats[holder],
                         json={"command": {"type": "PassPriority", "player": holder,
                                           "extra": 1}})
            await expect(422, token=seats[holder],
                         json={"command": {"type": "RunEngineWork", "marker": 1}})
            assert "seat" in await expect(403, token=seats[other], json=good)
            await expect(403, token=judge, json=good)
            await expect(413, token=seats[holder],
                         json={"command": {"type": "PassPriority", "player": holder,
                                           "pad": "x" * 20_000}})
            _, other_game = await new_game(http, f"{gid}-2", logins=system.logins)
            assert "another game" in await expect(403, token=other_game[holder], json=good)
            organiser, _ = await staff(http, system.logins)
            dup = await http.post(f"/games/{gid}/join", json={"seat": holder},
                                  headers=auth(organiser))
            assert dup.status_code == 409
            assert (await http.post(f"/games/{gid}/join", json={"seat": "P9"},
                                    headers=auth(organiser))).status_code == 404
            missing = await http.get(f"/games/{gid}-none/view",
                                     headers=auth(other_game[holder]))
            assert missing.status_code == 403  # a token for another game
            assert (await http.post("/games", json={"variant": "free_for_all"},
                                    headers=auth(organiser))).status_code == 422
            assert system.store.stream_version(gid) == version

            # out of turn: a rules violation, answered with the rule, kept for judges
            r = await http.post(url, headers=auth(seats[other]),
                                json={"command": {"type": "PassPriority", "player": other},
                                      "command_id": "out-of-turn-1"})
            assert r.status_code == 202
            out = r.json()
            assert out["status"] == "rejected" and out["rule"] == "117.1", out
            assert system.store.stream_version(gid) == version
            assert all(e.type != "CommandRejected" for e in system.store.read_stream(gid))
            audit = system.store.read_stream(audit_stream(gid))
            assert [e.payload["command_id"] for e in audit] == ["out-of-turn-1"]
            seen = await http.get(f"/games/{gid}/audit", headers=auth(judge))
            assert [a["rule"] for a in seen.json()] == ["117.1"]
            forbidden = await http.get(f"/games/{gid}/audit", headers=auth(seats[other]))
            assert forbidden.status_code == 403

            # the same command again (a client retry): nothing new anywhere
            again = await http.post(url, headers=auth(seats[other]),
                                    json={"command": {"type": "PassPriority",
                                                      "player": other},
                                          "command_id": "out-of-turn-1"})
            assert again.json()["status"] == "rejected"
            assert len(system.store.read_stream(audit_stream(gid))) == 1

            # a good command, submitted twice with one id, is applied once
            body = {**good, "command_id": "pass-once-1"}
            first = (await http.post(url, headers=auth(seats[holder]), json=body)).json()
            assert first["status"] == "applied", first
            after = system.store.stream_version(gid)
            second = (await http.post(url, headers=auth(seats[holder]), json=body)).json()
            assert second["status"] == "applied"
            assert system.store.stream_version(gid) == after
            assert sum(1 for e in system.store.read_stream(gid)
                       if e.metadata.get("command_id") == "pass-once-1") >= 1
    run_on(scenario)
