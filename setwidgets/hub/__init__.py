"""A class on one JupyterHub: the roster, the roles and what each user's server starts with.

``deploy/jupyterhub_config.py`` is the hub's configuration; this package holds the rules it
follows, so that they can be read with ``help()`` and tested without a hub
(:mod:`setwidgets.hub.rosters`: who is in the class; :mod:`setwidgets.hub.homes`: what each
user starts with, and the exchange; :mod:`setwidgets.hub.kernels`: the kernel of a student's
Validate, named by string in her ``nbgrader_config.py``); every name of the first two is also
here, as ``from setwidgets.hub import ...``:

- the **roster** is a CSV file of ``username,role`` lines, one per Linux user, the role
  ``teacher`` (exactly one) or ``student``; lines starting with ``#`` are comments;
- each user's server is given the Jupyter configuration of their role
  (``deploy/jupyter/teacher`` or ``deploy/jupyter/student``): the Formgrader and the
  course list for the teacher only, the Assignments tab and Validate for everyone, and
  kernels that talk over socket files in the user's own runtime folder, not TCP ports;
- each user's home starts private, with the lessons (and for the teacher the course),
  and the exchange is open to all: :mod:`setwidgets.hub.homes` says how.

It imports nothing from JupyterHub.

>>> roles = parse_roster("# the class\\nmsmith,teacher\\nana,student\\nben,student\\n")
>>> roles["msmith"], sorted(name for name, role in roles.items() if role == STUDENT)
('teacher', ['ana', 'ben'])
"""

from setwidgets.hub.homes import (
    COURSE_FOLDER,
    COURSE_ID,
    LESSONS_FOLDER,
    RUNTIME_FOLDER,
    STUDENT_WORK,
    make_exchange,
    prepare_home,
    runtime_folder,
)
from setwidgets.hub.rosters import (
    ACCOUNTS,
    ROLES,
    STUDENT,
    TEACHER,
    USERNAME,
    RosterError,
    missing_users,
    parse_roster,
    read_roster,
)

__all__ = [
    "ACCOUNTS",
    "COURSE_FOLDER",
    "COURSE_ID",
    "LESSONS_FOLDER",
    "ROLES",
    "RUNTIME_FOLDER",
    "STUDENT",
    "STUDENT_WORK",
    "TEACHER",
    "USERNAME",
    "RosterError",
    "make_exchange",
    "missing_users",
    "parse_roster",
    "prepare_home",
    "read_roster",
    "runtime_folder",
]
