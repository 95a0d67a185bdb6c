"""nbgrader configuration for the setwidgets course; run every nbgrader command from this folder.

The course root is this folder, wherever the repository lives: source/, release/,
submitted/, autograded/, feedback/ and the SQLite gradebook gradebook.db all sit
beside this file. See README.md here for the teacher's command sequence.
"""

import os
from pathlib import Path

c = get_config()  # noqa: F821 - provided by nbgrader when it reads this file

COURSE_ROOT = Path(__file__).resolve().parent

c.CourseDirectory.course_id = "setwidgets"
c.CourseDirectory.root = str(COURSE_ROOT)
c.CourseDirectory.db_url = f"sqlite:///{COURSE_ROOT / 'gradebook.db'}"

# Where release_assignment puts the student copies and students submit. On one shared
# machine or JupyterHub, point SETWIDGETS_EXCHANGE at a folder every student can write
# to, for example /usr/local/share/nbgrader/exchange (nbgrader's own default, so the
# students need no configuration). Without it, everything stays inside the course.
c.Exchange.root = os.environ.get("SETWIDGETS_EXCHANGE", str(COURSE_ROOT / "exchange"))

# Every exercise cell runs in well under a second; 30 s per cell stops a loop that
# never ends without cutting off a slow but correct answer.
c.ExecutePreprocessor.timeout = 30

# zip_collect: notebooks downloaded from a learning platform, named <student id>_<notebook>,
# for example ana_magic_rule.ipynb, go in downloaded/<assignment>/archive/ (zip files too).
c.FileNameCollectorPlugin.named_regexp = r".*/(?P<student_id>[A-Za-z0-9.-]+)_(?P<file_id>[a-z0-9_]+\.ipynb)$"
