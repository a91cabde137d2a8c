"""Every generated deployment file, by path (`make deploy-files` writes them;
`tests/deploy` checks the committed ones equal these)."""

from __future__ import annotations

from pathlib import Path

from arbiter_ops import compose, infra, k8s

#: the generated directory trees: a committed file there that is not generated is stale
TREES = ("k8s",)


def generated() -> dict[str, str]:
    return {"docker-compose.yml": compose.render(), compose.TANSU_FILE: compose.render_tansu(),
            **infra.files(), **k8s.files()}


def stale(root: Path) -> list[str]:
    """Committed files in the generated trees that nothing generates any more."""
    made = set(generated())
    return sorted(str(p.relative_to(root)) for tree in TREES
                  for p in (root / tree).rglob("*")
                  if p.is_file() and str(p.relative_to(root)) not in made
                  and not p.name.startswith("secret.yaml"))


def write_all(root: Path) -> list[Path]:
    for path in stale(root):
        (root / path).unlink()
    out: list[Path] = []
    for rel, text in generated().items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
        out.append(target)
    return out
