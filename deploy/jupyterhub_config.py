"""JupyterHub configuration for a whole class on one server: ``python3 course.py hub`` starts it.

Read deploy/README.md first. In short, as root, with this repository where every user can
read it (for example /opt/setwidgets):

- the class is the roster, a CSV file of ``username,role`` lines (one teacher, the rest
  students), each a Linux user who logs in with their own password (PAM);
- each user's server runs from the hub's own environment, this repository's ``.venv-hub``
  (the course's packages, nothing to install per user, made by a Python every user can
  run), with the Jupyter configuration of their role from deploy/jupyter/: the
  Formgrader for the teacher only, the Assignments tab for everyone;
- the teacher's course root is ``~/setwidgets-course``, copied from exercises/ the first
  time their server starts; grading there runs in the course's sandbox;
- assignments go through one shared nbgrader exchange, mode 1777;
- the room service of the live class game (``setwidgets.classroom``) runs as the hub's
  service ``classroom``: every server's token may reach it, and the roster's teacher alone
  opens, pauses and ends rooms.

Settings, from the environment (the defaults suit a real server):

- SETWIDGETS_HUB_ROSTER: the class (default deploy/roster.csv);
- SETWIDGETS_HUB_URL: where the hub listens (default http://127.0.0.1:8000); the next three
  ports serve the proxy's API, the hub itself and the classroom service;
- SETWIDGETS_HUB_STATE: the hub's database and secrets, and the classroom's rooms (default
  /srv/setwidgets-hub);
- SETWIDGETS_EXCHANGE: the nbgrader exchange (default /srv/nbgrader/exchange).
"""

import os
import pwd
import sys
from pathlib import Path
from urllib.parse import urlsplit

c = get_config()  # noqa: F821 - provided by JupyterHub when it reads this file

DEPLOY = Path(__file__).resolve().parent
REPOSITORY = DEPLOY.parent
# The hub runs from the environment course.py made for it (.venv-hub), and so does every server.
VENV_BIN = Path(sys.prefix) / "bin"

from setwidgets import hub  # noqa: E402

ROSTER = os.environ.get("SETWIDGETS_HUB_ROSTER") or str(DEPLOY / "roster.csv")
URL = os.environ.get("SETWIDGETS_HUB_URL") or "http://127.0.0.1:8000"
STATE = Path(os.environ.get("SETWIDGETS_HUB_STATE") or "/srv/setwidgets-hub")
EXCHANGE = os.environ.get("SETWIDGETS_EXCHANGE") or "/srv/nbgrader/exchange"

try:
    ROLES = hub.read_roster(ROSTER)
except hub.RosterError as error:
    sys.exit(f"The hub did not start: {error}.")
missing = hub.missing_users(ROLES)
if missing:
    sys.exit(
        f"The roster {ROSTER} names users this machine does not have: {', '.join(missing)}. "
        "Create each with 'useradd --create-home --shell /bin/bash NAME' and give a password with "
        "'passwd NAME' (or 'chpasswd' for a whole class), then start the hub again."
    )
# Every user's kernels must be able to start: their socket files live in the home (hub.runtime_folder).
for name in ROLES:
    try:
        hub.runtime_folder(pwd.getpwnam(name).pw_dir)
    except ValueError as error:
        sys.exit(f"The hub did not start: {name}'s {str(error).removeprefix('runtime_folder(): the ')}.")

# -- the hub, its proxy and its state ---------------------------------------------------------------
port = urlsplit(URL).port or 8000
c.JupyterHub.bind_url = URL
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{port + 1}"
c.JupyterHub.hub_bind_url = f"http://127.0.0.1:{port + 2}"
c.ConfigurableHTTPProxy.command = [str(DEPLOY / "node_modules" / ".bin" / "configurable-http-proxy")]
STATE.mkdir(parents=True, exist_ok=True)
STATE.chmod(0o700)  # the cookie secret and the database are the hub's alone
c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / "jupyterhub_cookie_secret")
c.ConfigurableHTTPProxy.pid_file = str(STATE / "jupyterhub-proxy.pid")

# -- who may log in: the roster's Linux users, with their own passwords -------------------------------
c.JupyterHub.authenticator_class = "pam"
c.Authenticator.allowed_users = set(ROLES)
# Each user opens their own server only; nobody, the teacher included, opens another's.
c.Authenticator.admin_users = set()

# -- each user's server: the course's packages, the configuration of their role -----------------------
try:
    hub.make_exchange(EXCHANGE)
except ValueError as error:
    sys.exit(f"The hub did not start: {error}.")
# The repository's exercises/ hold the solutions and the hidden tests. The hub (root) copies them
# for the teacher; nobody else needs them, so no student's server, and no grading kernel (which
# runs as the teacher), can read them.
(REPOSITORY / "exercises").chmod(0o700)
c.Spawner.cmd = [str(VENV_BIN / "jupyterhub-singleuser")]
c.Spawner.default_url = "/lab"
c.Spawner.notebook_dir = "~"
c.Spawner.http_timeout = 120  # a first start on a busy machine compiles and indexes for a while
c.Spawner.environment = {
    # nbgrader and jupyter in a terminal are the course's own
    "PATH": f"{VENV_BIN}:/usr/local/bin:/usr/bin:/bin",
    "SETWIDGETS_EXCHANGE": EXCHANGE,
    # The role's Jupyter configuration (deploy/jupyter/<role>): the Formgrader for the teacher only,
    # and each kernel's channels as socket files in the user's private runtime folder, not TCP ports
    # any user of the machine can subscribe to (README, section 6; tests/test_hub.py).
    "JUPYTER_CONFIG_PATH": lambda spawner: str(DEPLOY / "jupyter" / ROLES[spawner.user.name]),
    "JUPYTER_RUNTIME_DIR": lambda spawner: hub.runtime_folder(pwd.getpwnam(spawner.user.name).pw_dir),
    "SETWIDGETS_COURSE": lambda spawner: str(
        Path(pwd.getpwnam(spawner.user.name).pw_dir) / hub.COURSE_FOLDER
    ),
}


def start_with_the_course(spawner):
    """Before a server starts: a private home, and the lessons (and the teacher's course) in it."""
    name = spawner.user.name
    entry = pwd.getpwnam(name)
    copied = hub.prepare_home(entry.pw_dir, ROLES[name], REPOSITORY, owner=(entry.pw_uid, entry.pw_gid))
    for folder in copied:
        spawner.log.info("setwidgets: copied %s for %s", folder, name)


c.Spawner.pre_spawn_hook = start_with_the_course


# -- the live class game: the room service, a service of this hub ------------------------------------
# JupyterHub starts it, routes /services/classroom/ to it through the proxy and stops it with the hub.
# It asks the hub whose each token is (setwidgets.classroom.hubauth): a student's kernel sends the
# token JupyterHub gave their server and plays as that student only; the roster's teacher opens,
# pauses and ends rooms. Its rooms live in SQLite in the hub's state folder, so a restarted hub
# finds every room where it was.
CLASSROOM = "classroom"
CLASSROOM_URL = f"http://127.0.0.1:{port + 3}"  # on this machine only, like the hub's other ports
CLASSROOM_STATE = STATE / "classroom"
CLASSROOM_STATE.mkdir(mode=0o700, exist_ok=True)
TEACHERS = sorted(name for name, role in ROLES.items() if role == "teacher")
c.JupyterHub.services = [
    {
        "name": CLASSROOM,
        "url": CLASSROOM_URL,
        "command": [
            str(VENV_BIN / "python"),
            "-m",
            "setwidgets.classroom",
            "--hub",
            "--db",
            f"sqlite:///{CLASSROOM_STATE / 'rooms.sqlite'}",
        ],
        "cwd": str(CLASSROOM_STATE),
        "environment": {
            "SETWIDGETS_CLASSROOM_TEACHERS": ",".join(TEACHERS),
            "SETWIDGETS_CLASSROOM_HOME": str(CLASSROOM_STATE),
        },
    }
]
# Who may reach it: every user of the hub, and every server's own token ($JUPYTERHUB_API_TOKEN in
# a kernel), which otherwise holds only the server role's two scopes (JupyterHub 5's default).
ACCESS = f"access:services!service={CLASSROOM}"
c.JupyterHub.load_roles = [
    {
        "name": "user",
        "description": "Standard user privileges, and the class game",
        "scopes": ["self", ACCESS],
    },
]
c.Spawner.server_token_scopes = ["users:activity!user", "access:servers!server", ACCESS]
# Where a kernel reaches the service: through the proxy at the hub's address on this machine. A hub
# that serves HTTPS itself holds a certificate for its public name, not for 127.0.0.1: its kernels
# go to the service's own port instead, which is on this machine too.
public = urlsplit(URL)
if public.scheme == "https":
    reach = CLASSROOM_URL
else:
    host = "127.0.0.1" if public.hostname in (None, "0.0.0.0", "::") else public.hostname
    reach = f"http://{host}:{port}"
c.Spawner.environment["SETWIDGETS_CLASSROOM_URL"] = f"{reach}/services/{CLASSROOM}/"
