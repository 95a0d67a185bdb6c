"""The deployment guide (deploy/README.md) stays true to the files it describes.

Fast checks, no hub started (tests/test_hub.py runs the real one): the paths it names exist,
its commands and settings are the ones course.py and deploy/jupyterhub_config.py use, the
Kubernetes values file holds what the guide says it does, and the sizing figures are the
ones benchmarks/hub_memory.py recorded.
"""

from __future__ import annotations

import importlib.util
import json
import math
import re
import sys
import tomllib
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
GUIDE = DEPLOY / "README.md"
VALUES = DEPLOY / "kubernetes" / "values.yaml"
EXCHANGE_PVC = DEPLOY / "kubernetes" / "exchange-pvc.yaml"
RESULT = ROOT / "benchmarks" / "hub_memory.json"
# Where the course sits on a server, in TLJH and in the Kubernetes image.
INSTALLED = ("/opt/setwidgets/", "/srv/setwidgets/")
# Named by the guide but made at run time, or not this repository's: the proxy installed from
# npm, the exchange's folders, the gradebook, nbgrader's export, the chart's schema.
NOT_IN_REPOSITORY = {
    "deploy/node_modules",
    "setwidgets/outbound/",
    "setwidgets/inbound/",
    "setwidgets/feedback/",
    "gradebook.db",
    "grades.csv",
    "values.schema.yaml",
}


def _module(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def guide() -> str:
    return GUIDE.read_text()


@pytest.fixture(scope="module")
def values() -> dict:
    return yaml.safe_load(VALUES.read_text())


@pytest.fixture(scope="module")
def hub_memory():
    return _module("hub_memory", ROOT / "benchmarks" / "hub_memory.py")


@pytest.fixture(scope="module")
def recorded() -> dict:
    return json.loads(RESULT.read_text())


def _code_blocks(text: str) -> list[str]:
    return re.findall(r"^ *```[a-z]*\n(.*?)^ *```", text, flags=re.M | re.S)


def _quoted(text: str) -> list[str]:
    return re.findall(r"`([^`\n]+)`", text)


def _config_defaults() -> dict[str, str]:
    """The settings deploy/jupyterhub_config.py reads from the environment, with their defaults."""
    text = (DEPLOY / "jupyterhub_config.py").read_text()
    found = {}
    pattern = r'os\.environ\.get\("(SETWIDGETS_\w+)"\) or (?:"([^"]*)"|str\(DEPLOY / "([^"]+)"\))'
    for name, literal, in_deploy in re.findall(pattern, text):
        found[name] = literal or f"deploy/{in_deploy}"
    return found


# -- paths -----------------------------------------------------------------------------------------


def test_every_repository_path_the_guide_names_exists(guide) -> None:
    missing = []
    for quoted in _quoted(guide):
        if quoted in NOT_IN_REPOSITORY or " " in quoted or quoted.startswith(("~", "/", "http", "$", "-")):
            continue
        if not re.fullmatch(r"[\w.-]+(/[\w.-]*)*", quoted) or quoted.startswith("."):
            continue
        if "/" not in quoted and not re.search(r"\.(py|csv|json|yaml|md|ipynb|toml|yml)$", quoted):
            continue  # a word in backquotes (a command, a folder of the home), not a path
        places = [ROOT, DEPLOY, ROOT / "exercises", ROOT / "lessons"]
        if not any((place / quoted).exists() for place in places):
            missing.append(quoted)
    assert not missing, f"deploy/README.md names paths that are not in the repository: {missing}"


@pytest.mark.parametrize("path", [GUIDE, VALUES, EXCHANGE_PVC], ids=lambda p: p.name)
def test_paths_inside_an_installed_course_exist_in_the_repository(path: Path) -> None:
    text = path.read_text()
    named = re.findall(r"(?:/opt|/srv)/setwidgets/[\w./{}()-]*", text)
    assert named or path == EXCHANGE_PVC, f"{path.name} names no path of the installed course"
    missing = []
    for full in named:
        inside = full.split("/setwidgets/", 1)[1].split("{", 1)[0].rstrip("/")
        if inside and not (ROOT / inside).exists():
            missing.append(full)
    assert not missing, f"{path.name} names paths the course does not have: {missing}"


def test_the_guides_anchors_lead_to_its_headings(guide) -> None:
    headings = {
        re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
        for h in re.findall(r"^#+ (.+)$", guide, re.M)
    }
    anchors = set(re.findall(r"\]\(#([\w-]+)\)", guide))
    assert anchors, "the guide links no section of its own"
    assert anchors <= headings, f"links to missing sections: {sorted(anchors - headings)}"


# -- commands and settings -----------------------------------------------------------------------


def test_the_guide_starts_the_hub_the_way_course_py_does(guide) -> None:
    blocks = "\n".join(_code_blocks(guide))
    assert "sudo python3 course.py hub" in blocks
    assert "/opt/setwidgets" in blocks and "cd /opt/setwidgets" in blocks
    course = _module("course_for_guide", ROOT / "course.py")
    assert "hub" in course.COMMANDS
    assert course.DEPLOY == DEPLOY
    source = (ROOT / "course.py").read_text()
    assert '"jupyterhub"), "-f", str(DEPLOY / "jupyterhub_config.py")' in source
    assert "jupyterhub -f deploy/jupyterhub_config.py" in guide
    for tool in ("useradd", "passwd", "chpasswd"):
        assert re.search(rf"\bsudo {tool}\b", blocks), f"the guide's commands should use {tool}"


def test_the_settings_table_matches_the_hub_configuration(guide) -> None:
    defaults = _config_defaults()
    assert set(defaults) >= {"SETWIDGETS_HUB_ROSTER", "SETWIDGETS_HUB_URL", "SETWIDGETS_HUB_STATE"}
    rows = dict(re.findall(r"^\| `(SETWIDGETS_\w+)` \| `([^`]+)` \|", guide, re.M))
    assert set(rows) == set(defaults), (
        f"the guide's table lists {sorted(rows)}; the hub reads {sorted(defaults)}"
    )
    assert rows == defaults


def test_the_roster_example_is_the_repositorys_roster(guide) -> None:
    roster = (DEPLOY / "roster.csv").read_text()
    assert f"```\n{roster}```" in guide, "the guide should show deploy/roster.csv as it is"


def test_the_guides_nbgrader_commands_exist_and_name_a_real_assignment(guide) -> None:
    from nbgrader.apps.nbgraderapp import NbGraderApp

    used = set()
    for block in _code_blocks(guide):
        for command, argument in re.findall(r"^\s*nbgrader (\w+) ?(\S*)", block, re.M):
            used.add(command)
            if argument and not argument.startswith("#"):
                assert (ROOT / "exercises" / "source" / argument).is_dir(), f"no assignment {argument}"
    assert used >= {"release_assignment", "collect", "autograde", "generate_feedback", "release_feedback"}
    assert used <= set(NbGraderApp.subcommands), f"unknown: {sorted(used - set(NbGraderApp.subcommands))}"


def test_the_student_role_has_no_formgrader_as_the_guide_says() -> None:
    server = json.loads((DEPLOY / "jupyter" / "student" / "jupyter_server_config.json").read_text())
    assert server["ServerApp"]["jpserver_extensions"]["nbgrader.server_extensions.formgrader"] is False
    teacher = json.loads((DEPLOY / "jupyter" / "teacher" / "jupyter_server_config.json").read_text())
    assert "ServerApp" not in teacher, "the teacher's server keeps every extension, the Formgrader too"


def test_every_role_runs_its_kernels_over_private_socket_files() -> None:
    """In the roles' own configuration, so each route that gives a user their role's folder (course.py
    hub, TLJH's and Kubernetes' JUPYTER_CONFIG_PATH) has it; test_hub tries to listen in."""
    for role in ("teacher", "student"):
        server = json.loads((DEPLOY / "jupyter" / role / "jupyter_server_config.json").read_text())
        assert server["KernelManager"] == {"transport": "ipc"}, role


# -- the packages ----------------------------------------------------------------------------------


def test_the_image_and_tljh_get_the_packages_the_guide_promises(guide) -> None:
    environment = yaml.safe_load((ROOT / "environment.yml").read_text())["dependencies"]
    names = {re.split(r"[<>=! ]", d, maxsplit=1)[0] for d in environment if isinstance(d, str)}
    # What the role configurations and the Assignments tab need in every user's server.
    assert names >= {"jupyterlab", "nbgrader", "ipywidgets", "ipycanvas", "notebook"}
    python = next(d for d in environment if isinstance(d, str) and d.startswith("python="))
    assert "Python 3.11 or newer" in guide and f"Python {python.removeprefix('python=')})" in guide
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    course = {re.split(r"[<>=!~ \[]", r, maxsplit=1)[0] for r in extras["course"]} - {"setwidgets"}
    # jsonschema: only a bound on what nbgrader and Jupyter bring anyway (pyproject.toml says why).
    assert course == {"jupyterlab", "notebook", "nbgrader", "voila", "nh3", "jsonschema"}
    promised = (
        "`course` extra\n   (JupyterLab, Notebook, nbgrader, Voila, and nh3 for the grader's sanitiser)"  # noqa: E501
    )
    assert promised in guide
    assert course <= names, "environment.yml misses packages of the course extra"
    # The hub's major version, the chart's, and the one repo2docker's jupyterhub-singleuser matches.
    hub = next(r for r in extras["hub"] if r.startswith("jupyterhub"))
    assert ",<6" in hub and "JupyterHub 5" in guide and "JupyterHub 5" in VALUES.read_text()


# -- the Kubernetes values -------------------------------------------------------------------------


def test_the_values_file_uses_the_exchange_claim_at_the_hubs_exchange_path(values) -> None:
    exchange = _config_defaults()["SETWIDGETS_EXCHANGE"]
    single = values["singleuser"]
    claim = yaml.safe_load(EXCHANGE_PVC.read_text())
    assert claim["kind"] == "PersistentVolumeClaim"
    assert claim["spec"]["accessModes"] == ["ReadWriteMany"]
    (volume,) = single["storage"]["extraVolumes"].values()
    (mount,) = single["storage"]["extraVolumeMounts"].values()
    assert volume["persistentVolumeClaim"]["claimName"] == claim["metadata"]["name"]
    assert mount == {"name": volume["name"], "mountPath": exchange}
    assert single["extraEnv"]["SETWIDGETS_EXCHANGE"] == exchange
    (init,) = single["initContainers"]
    assert init["command"] == ["chmod", "1777", exchange]
    assert init["securityContext"]["runAsUser"] == 0
    assert init["volumeMounts"] == [mount]
    image = single["image"]
    assert init["image"] == f"{image['name']}:{image['tag']}", "the init container runs the course's image"


def test_the_values_file_lets_in_the_roster_and_no_admin(values) -> None:
    from setwidgets.hub import read_roster

    roles = read_roster(DEPLOY / "roster.csv")
    config = values["hub"]["config"]
    assert set(config["Authenticator"]["allowed_users"]) == set(roles)
    assert config["Authenticator"]["admin_users"] == []
    assert config["JupyterHub"]["admin_access"] is False
    assert config["JupyterHub"]["authenticator_class"] != "dummy"


def test_the_values_files_roles_give_each_user_their_configuration(values) -> None:
    from setwidgets.hub import read_roster

    roles = read_roster(DEPLOY / "roster.csv")
    c = SimpleNamespace(KubeSpawner=SimpleNamespace(environment={}, pre_spawn_hook=None))
    for name, code in values["hub"]["extraConfig"].items():
        exec(compile(code, f"hub.extraConfig.{name}", "exec"), {"c": c})
    environment = c.KubeSpawner.environment
    for user, role in roles.items():
        spawner = SimpleNamespace(user=SimpleNamespace(name=user), mem_limit=None, mem_guarantee=None)
        assert environment["SETWIDGETS_ROLE"](spawner) == role
        config_path = environment["JUPYTER_CONFIG_PATH"](spawner)
        assert config_path == f"/srv/setwidgets/deploy/jupyter/{role}"
        assert (ROOT / config_path.removeprefix("/srv/setwidgets/") / "nbgrader_config.py").is_file()
        c.KubeSpawner.pre_spawn_hook(spawner)
        if role == "teacher":  # grading: the sandbox allows 2 GiB per kernel
            assert spawner.mem_limit == "3G"
        else:
            assert spawner.mem_limit is None
    # The first start copies the lessons for all and the course for the teacher, then starts the server.
    command = values["singleuser"]["cmd"]
    assert command[:2] == ["sh", "-c"] and command[-1] == "jupyterhub-singleuser"
    script = command[2]
    assert script.rstrip().endswith('exec jupyterhub-singleuser "$@"')
    assert 'cp -r /srv/setwidgets/lessons "$HOME/setwidgets-lessons"' in script
    assert 'cp -r /srv/setwidgets/exercises "$SETWIDGETS_COURSE"' in script
    from setwidgets.hub import COURSE_FOLDER, LESSONS_FOLDER

    assert LESSONS_FOLDER == "setwidgets-lessons"
    assert values["singleuser"]["extraEnv"]["SETWIDGETS_COURSE"] == f"/home/jovyan/{COURSE_FOLDER}"


def test_the_values_file_has_only_fields_the_guide_explains(values, guide) -> None:
    assert set(values) == {"hub", "singleuser", "cull"}
    for field in (
        "singleuser.image",
        "singleuser.cmd",
        "singleuser.memory.guarantee",
        "singleuser.storage.extraVolumes",
        "hub.extraConfig",
        "hub.config.Authenticator.allowed_users",
    ):
        assert f"`{field}`" in guide, f"the guide should explain {field}"
    assert "`cull`" in guide and values["cull"]["enabled"] is True


# -- the sizing ------------------------------------------------------------------------------------


def test_the_recorded_measurement_holds_together(recorded, hub_memory) -> None:
    runs = recorded["runs"]
    assert len(runs) >= 3, "the sizing rests on at least three measured servers"
    for run in runs:
        assert 0 < run["uss"] <= run["pss"] <= run["rss"] <= run["peak_rss"]
    for run, kernel in zip(runs, recorded["kernels"], strict=True):
        assert 0 < kernel["pss"] < run["pss"]
    assert recorded["lesson"] == hub_memory.LESSON and (ROOT / hub_memory.LESSON).is_file()
    assert recorded["server"] == hub_memory.SERVERS["hub"], "the guide's rule rests on a real hub's server"
    assert recorded["per_student_mib"] == hub_memory.per_student_mib([r["pss"] for r in runs])
    assert recorded["reserved_mib"] == hub_memory.RESERVED_MIB
    assert recorded["students_that_fit"] == hub_memory.students_that_fit(recorded["per_student_mib"])


def test_the_guides_sizing_is_the_recorded_measurement(guide, recorded, hub_memory) -> None:
    per_student = recorded["per_student_mib"]
    assert f"**{per_student} MiB per student**" in guide
    fit = hub_memory.students_that_fit(per_student, machine_gib=24)
    assert f"**A machine with 24 GiB holds {fit}\nstudents**" in guide
    with_headroom = [hub_memory.students_that_fit(per_student * f) for f in (1.2, 1.4)]
    assert f"24 GiB holds {with_headroom[0]} to {with_headroom[1]} students" in guide
    reserved = hub_memory.RESERVED_MIB
    assert f"(machine memory − {sum(reserved.values())} MiB) / {per_student} MiB" in guide
    for mib in reserved.values():
        assert f"- {mib} MiB for" in guide
    rows = re.findall(r"^\| (\d+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \|$", guide, re.M)
    table = [[float(x) for x in row[1:]] for row in rows]
    measured = [
        [run["pss"], run["uss"], run["rss"], kernel["pss"]]
        for run, kernel in zip(recorded["runs"], recorded["kernels"], strict=True)
    ]
    assert table == measured, "the guide's table should be benchmarks/hub_memory.json's runs"
    lab = [run["pss"] for run in recorded["comparison"]["runs"]]
    assert recorded["comparison"]["server"] == hub_memory.SERVERS["lab"]
    low, high = (math.floor(x + 0.5) for x in (min(lab), max(lab)))
    assert f"`python3 course.py lab`\nstarts it took {low} to {high} MiB" in guide
    hub = [h["pss"] for h in recorded["hub_and_proxy"]]
    low, high = (math.floor(x + 0.5) for x in (min(hub), max(hub)))
    assert f"(the hub and its proxy took {low} to\n  {high} MiB in the same runs)" in guide
    assert max(hub) < reserved["system and JupyterHub (hub and proxy)"]


def test_the_values_files_memory_is_the_measured_figure(values, recorded) -> None:
    memory = values["singleuser"]["memory"]
    assert memory["guarantee"] == f"{recorded['per_student_mib']}M"
    assert int(memory["limit"].removesuffix("G")) * 1000 > recorded["per_student_mib"]
    most = max(r["pss"] for r in recorded["runs"])
    assert f"measured {math.floor(most + 0.5)} MiB at most" in VALUES.read_text()


def test_memory_is_read_from_smaps_rollup(hub_memory) -> None:
    import os

    usage = hub_memory.Usage.of([os.getpid(), 2**22 + 7])  # the second process does not exist
    assert usage.processes == 1
    assert 0 < usage.uss <= usage.pss <= usage.rss <= usage.peak_rss
    assert hub_memory._fields("Rss:   1024 kB\nName:\tpython\n") == {"Rss": 1024}
    assert hub_memory.students_that_fit(200, machine_gib=24) == (24 * 1024 - 4096) // 200
