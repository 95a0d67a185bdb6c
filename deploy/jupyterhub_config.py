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
- assignments go through one shared nbgrader exchange, mode 1777.

Settings, from the environment (the defaults suit a real server):

- SETWIDGETS_HUB_ROSTER: the class (default deploy/roster.csv);
- SETWIDGETS_HUB_URL: where the hub listens (default http://127.0.0.1:8000); the next two
  ports serve the proxy's API and the hub itself;
- SETWIDGETS_HUB_STATE: the hub's database and secrets (default /srv/setwidgets-hub);
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
    "JUPYTER_CONFIG_PATH": lambda spawner: str(DEPLOY / "jupyter" / ROLES[spawner.user.name]),
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
