"""The judge console in a real headless browser (Debian's chromium and chromedriver,
driven by Selenium; `.ci/run` installs them): a judge logs in, opens a game written by
`arbiter play`, steps to the event where a creature died (704.5g) and sees it in its
owner's graveyard and "Why?" naming 704.5g; opens a shared link; filters by rule; and
follows a live game for a few events.

`python -m tests.services.test_console_browser DIR` writes the screenshots of the docs
(a Two-Headed Giant game and a Grand Melee game) into DIR.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from arbiter_core.kernel.commands import StartGame
from arbiter_gateway.client import GatewayClient, play_through_gateway
from arbiter_runtime.botgame import start_command
from arbiter_store import open_store

from .console_games import died_of_lethal_damage, play_game
from .harness import LOGINS, memory_system

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
WAIT_S = 30.0


def browser_available() -> bool:
    return Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()


@contextmanager
def chromium(width: int = 1400, height: int = 1000) -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                f"--window-size={width},{height}", "--force-device-scale-factor=1"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def until(driver: Any, check: Callable[[Any], Any], what: str, timeout: float = WAIT_S) -> Any:
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.1,
                         ignored_exceptions=[StaleElementReferenceException]).until(check, what)


def css(driver: Any, selector: str) -> list[Any]:
    from selenium.webdriver.common.by import By

    return list(driver.find_elements(By.CSS_SELECTOR, selector))


def log_in(driver: Any, base: str, path: str) -> None:
    driver.get(base + path)
    until(driver, lambda d: d.find_element("id", "login").is_displayed(), "the login form")
    form = driver.find_element("id", "login-form")
    form.find_element("name", "name").send_keys(LOGINS.judge.name)
    form.find_element("name", "password").send_keys(LOGINS.judge.password)
    form.find_element("css selector", "button[type=submit]").click()
    until(driver, lambda d: d.find_element("id", "main").is_displayed(), "logged in")


def shown_at(driver: Any) -> int:
    return int(driver.find_element("id", "game").get_attribute("data-shown-at") or -1)


def go_to(driver: Any, n: int) -> None:
    box = driver.find_element("id", "at")
    box.clear()
    box.send_keys(str(n), "\n")
    until(driver, lambda d: shown_at(d) == n, f"the board at event {n}")


def graveyard(driver: Any, player: str) -> list[int]:
    ids = driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map(li => li.dataset.id);",
        f"#player-{player} ul.graveyard li")
    return [int(i) for i in ids]


def serve(db: Path, steps: Callable[[str, Any], None], live: StartGame | None = None) -> None:
    """Run the in-memory system on the store at `db` and `steps(base_url, store)` in a
    worker thread (Selenium blocks); with `live`, that bot game is played through the
    gateway meanwhile (seats sending commands over HTTP, the services deciding)."""
    async def go() -> None:
        with open_store(str(db)) as store:
            async with memory_system(store) as system, httpx.AsyncClient(
                    base_url=system.base_url, timeout=60) as http:
                playing = None
                if live is not None:
                    playing = asyncio.create_task(
                        play_through_gateway(GatewayClient(http, LOGINS), live))
                try:
                    await asyncio.wait_for(asyncio.to_thread(steps, system.base_url, store),
                                           300)
                finally:
                    if playing is not None:
                        playing.cancel()
                        with contextlib.suppress(asyncio.CancelledError, Exception):
                            await playing
    asyncio.run(go())


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    if not browser_available():
        pytest.fail("chromium and chromedriver are needed (apt-get install chromium "
                    "chromium-driver; .ci/run installs them)")
    db = tmp_path_factory.mktemp("browser") / "played.sqlite"
    return db, play_game(db)


def test_a_judge_steps_to_a_death_asks_why_shares_filters_and_follows(
        played: tuple[Path, str], tmp_path: Path) -> None:
    db = tmp_path / "console.sqlite"
    shutil.copy(played[0], db)
    game = played[1]
    with open_store(str(db), read_only=True) as store:
        died, card, owner = died_of_lethal_damage(store, game)

    def steps(base: str, store: Any) -> None:
        from selenium.webdriver.common.keys import Keys

        with chromium() as d:
            log_in(d, base, "/console")
            until(d, lambda d: css(d, f'#games tr[data-game="{game}"] a'), "the games list")
            css(d, f'#games tr[data-game="{game}"] a')[0].click()
            until(d, lambda d: shown_at(d) > died, "the last event")
            # step to the event where the creature died: it is in its owner's graveyard
            go_to(d, died - 1)
            assert card not in graveyard(d, owner)
            d.find_element("tag name", "body").send_keys(Keys.ARROW_RIGHT)
            until(d, lambda d: shown_at(d) == died, "one step right")
            assert card in graveyard(d, owner)
            assert "704.5g" in d.find_element("id", "event").text
            d.find_element("css selector", "#event .why-btn").click()
            until(d, lambda d: "704.5g" in d.find_element("id", "why").text, "Why? names 704.5g")
            assert "check_sba" in d.find_element("id", "why").text
            # the shared link opens the console at that event (and its filter)
            d.find_element("id", "share").click()
            link = d.find_element("id", "share-url").get_attribute("value")
            assert f"at={died}" in link
            d.get(base + f"/console/games/{game}")  # elsewhere first
            until(d, lambda d: shown_at(d) > died, "the last event")
            d.get(link)
            until(d, lambda d: shown_at(d) == died, "the shared event")
            assert card in graveyard(d, owner)
            # filter the timeline by rule
            form = d.find_element("id", "filters")
            form.find_element("name", "rule").send_keys("704.5g")
            form.find_element("css selector", "button[type=submit]").click()

            def timeline(d: Any) -> tuple[str, list[tuple[int, str]]]:
                """The pager's text and the rows (number, rule), read at one moment."""
                info, rows = d.execute_script(
                    "return [document.getElementById('page-info').textContent,"
                    " [...document.querySelectorAll('#timeline tbody tr')].map("
                    "r => [Number(r.dataset.version), r.children[4].textContent])];")
                return str(info), [(int(v), str(rule)) for v, rule in rows]

            def filtered(d: Any) -> list[tuple[int, str]] | None:
                info, rows = timeline(d)
                if not rows or "matching" not in info or "events read" not in info:
                    return None
                read, _, total = info.partition(" events read")[0].rpartition("(")[2] \
                    .partition(" of ")
                return rows if read == total else None
            rows = until(d, filtered, "the filtered timeline")
            assert {rule for _, rule in rows} == {"704.5g"}
            assert died in [v for v, _ in rows]
            # follow a live game (played through the gateway meanwhile) for a few events
            t0 = time.monotonic()
            while store.stream_version("live-game") == 0 and time.monotonic() - t0 < WAIT_S:
                time.sleep(0.1)
            d.get(base + "/console/games/live-game")
            until(d, lambda d: shown_at(d) > 0, "the live game")
            d.find_element("id", "follow").click()
            seen = [shown_at(d)]
            for _ in range(3):
                until(d, lambda d: shown_at(d) > seen[-1], "a live update")
                seen.append(shown_at(d))
            assert seen == sorted(seen) and seen[-1] > seen[0]
            assert "live" in d.find_element("id", "live").text
    serve(db, steps, live=start_command("live-game", 2, 5, "two_player"))


def battlefield(driver: Any) -> list[int]:
    ids = driver.execute_script(
        "return [...document.querySelectorAll('ul.battlefield li')].map(li => li.dataset.id);")
    return [int(i) for i in ids]


def test_a_judge_backs_a_game_up_from_the_console(played: tuple[Path, str],
                                                  tmp_path: Path) -> None:
    """The correction form: a judge backs the game up to the event before a creature
    died; the page moves to the correction, the creature is back on the battlefield, the
    timeline marks the correction and the chain reports it."""
    from arbiter_core.kernel.shell_loop import owed_marker
    from arbiter_runtime.fold import StoreStates

    db = tmp_path / "backup.sqlite"
    shutil.copy(played[0], db)
    game = played[1]
    with open_store(str(db), read_only=True) as store:
        died, _, _ = died_of_lethal_damage(store, game)
        dead = next(e for e in store.read_stream(game, died, died))
        creature, head = int(dead.payload["obj"]), store.stream_version(game)
        states = StoreStates(store, game)
        n = died - 1
        while owed_marker(s := states(n)) is not None or creature not in s.battlefield:
            n -= 1

    def steps(base: str, store: Any) -> None:
        with chromium() as d:
            log_in(d, base, f"/console/games/{game}")
            until(d, lambda d: shown_at(d) == head, "the last event")
            assert creature not in battlefield(d)
            form = d.find_element("id", "backup")
            assert form.is_displayed()
            box = form.find_element("name", "at")
            box.clear()
            box.send_keys(str(n))
            form.find_element("name", "reason").send_keys("a wrong block was allowed")
            form.find_element("css selector", "button[type=submit]").click()
            until(d, lambda d: shown_at(d) == head + 1, "the correction")
            assert creature in battlefield(d)
            assert "GameCorrected" in d.find_element("id", "event").text
            assert f"backed up to event {n} by judge-1" in \
                d.find_element("id", "backup-result").text
            until(d, lambda d: css(d, f'#timeline tr.correction[data-version="{head + 1}"]'),
                  "the correction in the timeline")
            until(d, lambda d: f"corrected at {n} by judge-1" in
                  d.find_element("id", "chain").text, "the chain's report")
        assert store.stream_version(game) == head + 1
    serve(db, steps)


def screenshots(out: Path) -> None:
    """The docs' screenshots: a Two-Headed Giant game and a Grand Melee game."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "shots.sqlite"
        shots = [("two_headed_giant", 4, 5, "console-2hg.png", 1400, 1500),
                 ("grand_melee", 16, 2, "console-grand-melee.png", 1400, 1800)]
        games = []
        for variant, players, seed, name, w, h in shots:
            one = Path(tmp) / f"{variant}.sqlite"
            games.append((play_game(one, variant, players, seed), one, name, w, h))

        for game, one, name, w, h in games:
            shutil.copy(one, db)

            def steps(base: str, store: Any, game: str = game, name: str = name,
                      w: int = w, h: int = h) -> None:
                with chromium(w, h) as d:
                    log_in(d, base, f"/console/games/{game}")
                    until(d, lambda d: shown_at(d) > 0, "the board")
                    total = shown_at(d)
                    go_to(d, total * 2 // 5)
                    time.sleep(0.5)
                    d.save_screenshot(str(out / name))
            serve(db, steps)
            db.unlink()
            print(f"wrote {out / name}")


if __name__ == "__main__":
    screenshots(Path(sys.argv[1] if len(sys.argv) > 1 else "docs"))
