"""Both rendered overlays (`kubectl kustomize`), compose and the Prometheus targets,
against the process list of the launcher and the settings the code reads (issue 12)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from arbiter_ops import deployment
from arbiter_ops.launcher import PROCESSES, process_command
from arbiter_services.settings import Settings
from arbiter_services.topics import SERVICES, TOPIC_BY_NAME

from .envreads import Read, reads
from .harness import (
    ROOT,
    arbiter_containers,
    compose_doc,
    compose_project,
    config_value,
    effective_env,
    of_kind,
    rendered,
)

OVERLAYS = ("dev", "large-event")
#: read by the OpenTelemetry SDK itself, not by Arbiter's code
SDK_ENV = {"OTEL_SERVICE_NAME"}


def _pods(docs: tuple[dict[str, Any], ...]) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for d in docs:
        if d["kind"] in ("Deployment", "StatefulSet"):
            out.append((f"{d['kind']} {d['metadata']['name']}", d["spec"]["template"]["spec"]))
        elif d["kind"] == "Job":
            out.append((f"Job {d['metadata']['name']}", d["spec"]["template"]["spec"]))
    return out


def restricted_problems(where: str, pod: dict[str, Any]) -> list[str]:
    """What keeps a pod from the `restricted` profile: non-root, read-only root
    filesystem, no privilege escalation, every capability dropped, a seccomp profile."""
    out = []
    if not pod.get("securityContext", {}).get("runAsNonRoot"):
        out.append(f"{where}: pod may run as root")
    if pod.get("securityContext", {}).get("seccompProfile", {}).get("type") != "RuntimeDefault":
        out.append(f"{where}: no RuntimeDefault seccomp profile")
    for c in [*pod.get("initContainers", []), *pod["containers"]]:
        sc = c.get("securityContext", {})
        if not (sc.get("runAsNonRoot") and sc.get("readOnlyRootFilesystem")
                and sc.get("allowPrivilegeEscalation") is False
                and sc.get("capabilities", {}).get("drop") == ["ALL"]):
            out.append(f"{where}/{c['name']}: securityContext is not restricted: {sc}")
        res = c.get("resources", {})
        if not ({"cpu", "memory"} <= set(res.get("requests", {}))
                and "memory" in res.get("limits", {})):
            out.append(f"{where}/{c['name']}: no cpu+memory requests and memory limit")
    return out


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_pod_is_restricted_and_has_resources(overlay: str) -> None:
    docs = rendered(overlay)
    problems = [p for where, pod in _pods(docs) for p in restricted_problems(where, pod)]
    assert problems == []


def test_the_check_sees_a_privileged_container() -> None:
    pod = {"securityContext": {"runAsNonRoot": True,
                               "seccompProfile": {"type": "RuntimeDefault"}},
           "containers": [{"name": "x", "securityContext": {"runAsNonRoot": True,
                                                            "readOnlyRootFilesystem": True,
                                                            "allowPrivilegeEscalation": True,
                                                            "capabilities": {"drop": ["ALL"]}},
                           "resources": {"requests": {"cpu": "1"}}}]}
    assert len(restricted_problems("Deployment x", pod)) == 2


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_deployment_has_probes_and_drains_in_its_grace_period(overlay: str) -> None:
    for name, dep in of_kind(rendered(overlay), "Deployment").items():
        pod = dep["spec"]["template"]["spec"]
        for c in pod["containers"]:
            assert c["readinessProbe"] and c["livenessProbe"], f"{name}/{c['name']}"
        if name.startswith("arbiter-"):
            (c,) = pod["containers"]
            assert c["livenessProbe"]["httpGet"]["path"] == "/health/live"
            assert c["readinessProbe"]["httpGet"]["path"] == "/health/ready"
            assert pod["terminationGracePeriodSeconds"] > deployment.DRAIN_S + 5
            # the store's schema is migrated before a process starts
            assert [i["name"] for i in pod["initContainers"]] == ["wait-for-migrations"]


def _partitions(docs: tuple[dict[str, Any], ...]) -> dict[str, int]:
    return {t["spec"]["topicName"]: t["spec"]["partitions"]
            for t in of_kind(docs, "KafkaTopic").values()}


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_scaled_objects_stay_within_partitions_and_own_their_replicas(overlay: str) -> None:
    docs = rendered(overlay)
    deployments = of_kind(docs, "Deployment")
    partitions = _partitions(docs)
    scaled = of_kind(docs, "ScaledObject")
    for name, so in scaled.items():
        target = so["spec"]["scaleTargetRef"]["name"]
        assert "replicas" not in deployments[target]["spec"], f"{target} fights KEDA"
        for trig in so["spec"]["triggers"]:
            assert trig["type"] == "kafka"
            topic = trig["metadata"]["topic"]
            assert so["spec"]["maxReplicaCount"] <= partitions[topic], (name, topic)
            assert trig["metadata"]["consumerGroup"] == target.removeprefix("arbiter-")
    if overlay == "large-event":  # every consumer service, all keyed by game(:marker)
        assert {so["spec"]["scaleTargetRef"]["name"] for so in scaled.values()} == \
            {f"arbiter-{s}" for s in SERVICES}
    else:  # one replica each: the default of a Deployment without `replicas`
        assert scaled == {}
        assert all(d["spec"].get("replicas", 1) == 1 for d in deployments.values())


def _prometheus_targets() -> set[str]:
    doc = yaml.safe_load((ROOT / "infra" / "prometheus" / "prometheus.yml").read_text())
    return {n for job in doc["scrape_configs"] for sd in job["dns_sd_configs"]
            for n in sd["names"]}


def _k8s_env(docs: tuple[dict[str, Any], ...], c: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """A rendered container's environment: name -> ("value", its value) for a literal or
    a ConfigMap's key, ("secret", key) or ("field", path)."""
    maps = of_kind(docs, "ConfigMap")
    out: dict[str, tuple[str, str]] = {}
    for src in c.get("envFrom", []):
        out.update({k: ("value", str(v))
                    for k, v in maps[src["configMapRef"]["name"]]["data"].items()})
    for e in c.get("env", []):
        if "value" in e:
            out[e["name"]] = ("value", str(e["value"]))
        elif "secretKeyRef" in e["valueFrom"]:
            out[e["name"]] = ("secret", e["valueFrom"]["secretKeyRef"]["key"])
        else:
            out[e["name"]] = ("field", e["valueFrom"]["fieldRef"]["fieldPath"])
    return out


def _main_container(docs: tuple[dict[str, Any], ...], name: str) -> dict[str, Any]:
    (c,) = of_kind(docs, "Deployment")[f"arbiter-{name}"]["spec"]["template"]["spec"][
        "containers"]
    return dict(c)


def _compare_env(where: str, raw: dict[str, Any], interpolated: dict[str, Any],
                 k8s: dict[str, tuple[str, str]], bootstrap: str) -> list[str]:
    """What differs between one workload's environment in docker-compose.yml (`raw` as
    written, `interpolated` as Compose makes it) and in a rendered overlay (`k8s`): the
    names, which of them are secrets (compose: `${X:?...}` from .env; k8s: the Secret),
    and every other value but the broker's address and the instance name."""
    if set(k8s) != set(interpolated):
        return [f"{where}: compose only {sorted(set(interpolated) - set(k8s))}, "
                f"k8s only {sorted(set(k8s) - set(interpolated))}"]
    out = []
    for var, (kind, value) in sorted(k8s.items()):
        secret_in_compose = ":?" in str(raw[var])
        if (kind == "secret") != secret_in_compose:
            out.append(f"{where}: {var} is a secret in only one of them")
        elif var == "ARBITER_BROKER":  # each one's own Kafka
            if (interpolated[var], (kind, value)) != ("kafka:9092", ("value", bootstrap)):
                out.append(f"{where}: {var}: {interpolated[var]} / {value}")
        elif var == "ARBITER_INSTANCE":  # compose: the service; k8s: the pod
            if (kind, value) != ("field", "metadata.name"):
                out.append(f"{where}: {var}: {kind} {value}")
        elif kind == "value" and str(interpolated[var]) != value:
            out.append(f"{where}: {var}: compose {interpolated[var]!r}, k8s {value!r}")
    return out


def test_every_process_everywhere_with_the_same_environment() -> None:
    """The rendered files compared with each other (docker-compose.yml as Compose reads
    it, both overlays as `kubectl kustomize` renders them), not with their generator."""
    raw, project = compose_doc()["services"], compose_project()["services"]
    assert _prometheus_targets() == set(PROCESSES)
    assert set(PROCESSES) <= set(project)
    problems = []
    for overlay in OVERLAYS:
        docs = rendered(overlay)
        (cluster,) = of_kind(docs, "Kafka")  # its name
        bootstrap = f"{cluster}-kafka-bootstrap:9092"
        metrics = of_kind(docs, "Service")
        for name in PROCESSES:
            c = _main_container(docs, name)
            assert c["command"] == ["python", "-m", *process_command(name)]
            assert project[name]["command"] == c["command"]
            assert f"arbiter-{name}-metrics" in metrics
            problems += _compare_env(f"{overlay} {name}", raw[name]["environment"],
                                     project[name]["environment"], _k8s_env(docs, c),
                                     bootstrap)
        (job,) = of_kind(docs, "Job")["arbiter-migrate"]["spec"]["template"]["spec"][
            "containers"]
        problems += _compare_env(f"{overlay} migrate", raw["migrate"]["environment"],
                                 project["migrate"]["environment"], _k8s_env(docs, job),
                                 bootstrap)
    assert problems == []


def test_the_environment_comparison_sees_drift() -> None:
    bootstrap = "k-kafka-bootstrap:9092"
    raw = {"A": "1", "S": "${S:?set it}", "ARBITER_BROKER": "${ARBITER_BROKER:-kafka:9092}"}
    interpolated = {"A": "1", "S": "x", "ARBITER_BROKER": "kafka:9092"}
    ok = {"A": ("value", "1"), "S": ("secret", "s"), "ARBITER_BROKER": ("value", bootstrap)}
    assert _compare_env("w", raw, interpolated, ok, bootstrap) == []
    for k8s in ({**ok, "A": ("value", "2")}, {**ok, "S": ("value", "x")},
                {**ok, "ARBITER_BROKER": ("value", "kafka:9092")},
                {k: v for k, v in ok.items() if k != "A"}):
        assert len(_compare_env("w", raw, interpolated, k8s, bootstrap)) == 1, k8s


#: the code's sources that deployed containers run (not arbiter_ops: no image command
#: imports it), and which of them read what: shared code is every process's
SOURCES = {"libs": PROCESSES, "services/arbiter_services": PROCESSES,
           "services/arbiter_gateway": ("gateway",), "services/arbiter_cli": ("migrate",)}
#: read without a default of the code's own, yet deliberately not deployed
NOT_DEPLOYED = {
    "ARBITER_JUDGE_LOGIN": "the bench's and tests' client logs in with it "
                           "(arbiter_gateway.logins.StaffLogins.load); no deployed process does",
    "ARBITER_ORGANISER_LOGIN": "the same, the organiser's",
    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "the alternative to OTEL_EXPORTER_OTLP_ENDPOINT, "
                                          "which every process gets",
    "ARBITER_JUDGE_PASSWORD": "a judge's password for a script running `arbiter correct` "
                              "(services/arbiter_cli/correct_cmd.py), which otherwise "
                              "asks for it; no deployed process makes corrections",
    "ARBITER_CR_BASE": "unset is the judge console's default (CR rule numbers shown, not "
                       "linked: no address outside the gateway); an operator sets it",
}


#: read by one workload's code without a default, deliberately not deployed to that
#: workload though deployed to others: (variable, workload) -> the reason
NOT_DEPLOYED_TO = {
    ("ARBITER_JUDGES", "migrate"): "the gateway's is deployed; `arbiter verify` "
    "(services/arbiter_cli) reads it only to check the signatures of judges' corrections "
    "and reports them 'signature not checked' when unset (--strict fails): an auditor "
    "sets it, and the migrate job, which never verifies, is not given the judges' "
    "credentials",
}


def _reads() -> list[Read]:
    return reads([p for src in SOURCES for p in (ROOT / src).rglob("*.py")], ROOT)


#: `$VAR`, `${VAR}` (compose's shell line: `$$VAR` as written) or `$(VAR)` (the kubelet's)
COMMAND_REF = re.compile(r"\$\$?\{?\(?([A-Z_][A-Z0-9_]*)")


def _deployed(by_command: bool = True) -> dict[str, set[str]]:
    """Every variable name given to a container of the Arbiter image: where it is set.
    `by_command=False` leaves out those the container's command itself expands (the
    migration job passes its URL as `--db "$ARBITER_OWNER_STORE"`)."""
    out: dict[str, set[str]] = {}

    def add(where: str, names: set[str], command: list[str]) -> None:
        expanded = {m for part in command for m in COMMAND_REF.findall(part)}
        for var in names - (set() if by_command else expanded):
            out.setdefault(var, set()).add(where)

    for name, svc in compose_project()["services"].items():
        if svc["image"].split(":")[0] == deployment.IMAGE:
            add(f"compose {name}", set(svc.get("environment", {})), svc["command"])
    for overlay in OVERLAYS:
        docs = rendered(overlay)
        for where, c in arbiter_containers(docs):
            add(f"{overlay} {where}", effective_env(docs, c), c["command"])
    return out


def test_every_variable_deployed_is_read_by_the_code() -> None:
    """A name in compose or k8s that no code reads (nor the container's command) is drift
    (a renamed setting). Reads are found in the syntax tree (envreads.py), not by
    searching the text."""
    read = {r.name for r in _reads()}
    unread = {var: where for var, where in _deployed(by_command=False).items()
              if var not in read and var not in SDK_ENV}
    assert unread == {}
    assert "ARBITER_OWNER_STORE" in _deployed()  # expanded by the migration job's command


def _workload_env(target: str, workload: str) -> set[str]:
    if target == "compose":
        return set(compose_project()["services"][workload].get("environment", {}))
    docs = rendered(target)
    if workload == "migrate":
        (c,) = of_kind(docs, "Job")["arbiter-migrate"]["spec"]["template"]["spec"][
            "containers"]
    else:
        c = _main_container(docs, workload)
    return effective_env(docs, c)


def test_every_variable_the_code_needs_is_deployed() -> None:
    """A variable the code reads with no value of its own (unset: None, empty, a
    KeyError) is set for every workload that runs that code, in compose and both
    overlays; or it is in NOT_DEPLOYED, with the reason."""
    needed = [r for r in _reads() if not r.has_default and r.name not in NOT_DEPLOYED]
    assert {r.name for r in needed} >= {"ARBITER_STORE", "ARBITER_ANCHOR_KEY"}
    missing = []
    for r in needed:
        workloads = next(w for src, w in SOURCES.items() if r.where.startswith(src + "/"))
        for target in ("compose", *OVERLAYS):
            missing += [f"{r.name} ({r.where}): not set for {target} {w}"
                        for w in workloads if r.name not in _workload_env(target, w)
                        and (r.name, w) not in NOT_DEPLOYED_TO]
    assert missing == []
    # the exceptions are still read without a default, and still not deployed
    unset = {r.name for r in _reads() if not r.has_default}
    assert set(NOT_DEPLOYED) <= unset
    assert set(NOT_DEPLOYED).isdisjoint(_deployed())


def test_the_reader_finds_reads_not_mentions(tmp_path: Path) -> None:
    src = tmp_path / "m.py"
    src.write_text('''"""ARBITER_IN_A_DOCSTRING is only mentioned."""
import os
from typing import Final

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

KEY_ENV: Final = "ARBITER_BY_CONSTANT"
NOT_READ = "ARBITER_ONLY_A_STRING"


def _int(name, default):
    raw = os.environ.get(name)
    return int(raw) if raw else default


class S(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="ARBITER_")
    secret: str = Field(default="", validation_alias="ARBITER_ALIASED")
    ttl_s: int = 60
    required: str


def f(environ=None):
    print("ARBITER_IN_A_CALL")
    a = os.environ["ARBITER_SUBSCRIPT"]
    b = os.getenv("ARBITER_GETENV", "x")
    c = (os.environ if environ is None else environ).get(KEY_ENV, "")
    d = float(os.environ.get("ARBITER_OR") or 60)
    e = os.environ.get("ARBITER_FIRST") or os.environ.get("ARBITER_SECOND")
    return a, b, c, d, e, _int("ARBITER_HELPER", 5), _int("ARBITER_HELPER_BARE")
''')
    found = {r.name: r.has_default for r in reads([src], tmp_path)}
    assert found == {"ARBITER_BY_CONSTANT": False, "ARBITER_ALIASED": False,
                     "ARBITER_TTL_S": True, "ARBITER_REQUIRED": False,
                     "ARBITER_SUBSCRIPT": False, "ARBITER_GETENV": True, "ARBITER_OR": True,
                     "ARBITER_FIRST": False, "ARBITER_SECOND": False,
                     "ARBITER_HELPER": True, "ARBITER_HELPER_BARE": False}


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_secret_template_has_every_key_the_overlay_uses(overlay: str) -> None:
    docs = rendered(overlay)
    used = set()
    for _, pod in _pods(docs):
        for c in [*pod.get("initContainers", []), *pod["containers"]]:
            for e in c.get("env", []):
                ref = e.get("valueFrom", {}).get("secretKeyRef")
                if ref:
                    assert ref["name"] == "arbiter-secrets"
                    used.add(ref["key"])
    (template,) = yaml.safe_load_all(
        (ROOT / "k8s" / "overlays" / overlay / "secret.template.yaml").read_text())
    assert set(template["stringData"]) == used
    assert all("CHANGE-ME" in v for v in template["stringData"].values())


def test_images_are_pinned() -> None:
    images = [s["image"] for s in compose_doc()["services"].values()]
    for overlay in OVERLAYS:
        for _, pod in _pods(rendered(overlay)):
            images += [c["image"] for c in [*pod.get("initContainers", []), *pod["containers"]]]
    for image in images:
        name, _, tag = image.rpartition(":")
        assert name and tag and tag != "latest" and "/" not in tag, image


def test_no_process_creates_a_topic_where_the_operator_owns_them() -> None:
    from arbiter_services.process import topic_keeper
    compose = compose_doc()["services"]
    for name in PROCESSES:
        assert compose[name]["environment"]["ARBITER_TOPICS"] == "operator"
    assert compose["kafka"]["environment"]["KAFKA_AUTO_CREATE_TOPICS_ENABLE"] == "false"
    for overlay in OVERLAYS:
        docs = rendered(overlay)
        for name in PROCESSES:
            (c,) = of_kind(docs, "Deployment")[f"arbiter-{name}"]["spec"]["template"][
                "spec"]["containers"]
            assert config_value(docs, c, "ARBITER_TOPICS") == "operator"
        (kafka,) = of_kind(docs, "Kafka").values()
        assert kafka["apiVersion"] == "kafka.strimzi.io/v1"
        assert kafka["spec"]["kafka"]["config"]["auto.create.topics.enable"] is False
        assert "topicOperator" in kafka["spec"]["entityOperator"]
        assert set(_partitions(docs)) == set(TOPIC_BY_NAME)
    assert topic_keeper(Settings(broker="x:1", topics="operator")) is None
    assert topic_keeper(Settings(broker="x:1", topics="keeper")) is not None
    with pytest.raises(ValueError, match="ARBITER_TOPICS"):
        Settings(topics="sometimes")


def test_the_gateway_keeps_no_topics_where_the_operator_owns_them() -> None:
    from arbiter_gateway.server import build_gateway
    from arbiter_gateway.settings import GatewaySettings
    from arbiter_services.observability import setup_tracing
    from arbiter_store import open_store
    with open_store(":memory:") as store:
        for owner, keeps in (("operator", False), ("keeper", True)):
            s = Settings(broker="127.0.0.1:1", store=":memory:", topics=owner)
            _, gw = build_gateway(store, s, setup_tracing("t"),
                                  GatewaySettings(gateway_secret="x" * 32))
            assert (gw.keeper is not None) is keeps


def test_only_the_topic_job_and_the_keeper_create_topics() -> None:
    """`create_topics` is called in one module, and `ensure_topics` only by the keeper,
    the one-shot topic job and the local launcher and bench."""
    users = {str(p.relative_to(ROOT)) for p in (ROOT / "services").rglob("*.py")
             if "ensure_topics(" in p.read_text() or "create_topics(" in p.read_text()}
    assert users == {"services/arbiter_services/topic_admin.py",
                     "services/arbiter_services/recovery.py",
                     "services/arbiter_ops/launcher.py", "services/arbiter_ops/bench.py"}


def test_overlay_sizes() -> None:
    dev, large = rendered("dev"), rendered("large-event")
    assert {t["spec"]["replicas"] for t in of_kind(dev, "KafkaTopic").values()} == {1}
    assert {t["spec"]["replicas"] for t in of_kind(large, "KafkaTopic").values()} == {3}
    pools = {n: p["spec"] for n, p in of_kind(large, "KafkaNodePool").items()}
    assert pools["broker"]["replicas"] == 3 and pools["controller"]["roles"] == ["controller"]
    (dual,) = of_kind(dev, "KafkaNodePool").values()
    assert dual["spec"]["replicas"] == 1
    assert sorted(dual["spec"]["roles"]) == ["broker", "controller"]
    assert "arbiter-postgres" in of_kind(dev, "StatefulSet")
    assert of_kind(large, "StatefulSet") == {}
    assert of_kind(large, "Deployment")["arbiter-gateway"]["spec"]["replicas"] >= 2


def test_compose_waits_for_its_jobs() -> None:
    services = compose_doc()["services"]
    for name in PROCESSES:
        deps = services[name]["depends_on"]
        assert deps["migrate"]["condition"] == "service_completed_successfully"
        assert deps["topics"]["condition"] == "service_completed_successfully"
        assert "healthcheck" in services[name]
        assert services[name]["read_only"] is True
    assert services["migrate"]["environment"] == {
        **deployment.MIGRATE_CONFIG,
        deployment.OWNER_STORE.env: deployment.OWNER_STORE.compose_value()}
    assert services["migrate"]["environment"]["ARBITER_LOG_FORMAT"] == "json"
    assert (ROOT / services["relay"]["build"]["dockerfile"]).exists()
    assert Path(ROOT / ".env.example").read_text().count("CHANGE-ME") >= 3
