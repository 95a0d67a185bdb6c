"""nbgrader configuration for JupyterLab started at the top of the repository.

The course lives in exercises/ and is configured there. This file loads that
configuration, so nbgrader's menus (Formgrader, Assignment List, Validate) find the
course when JupyterLab starts here: ``python3 course.py lab`` and Binder both do.
Run nbgrader's command line from exercises/, as exercises/README.md shows.
"""

from pathlib import Path

c = get_config()  # noqa: F821 - provided by nbgrader when it reads this file

COURSE_CONFIG = Path(__file__).resolve().parent / "exercises" / "nbgrader_config.py"
# load_subconfig silently ignores a missing file; a moved course should fail loudly instead.
if not COURSE_CONFIG.is_file():
    raise FileNotFoundError(f"the course configuration {COURSE_CONFIG} is missing")
load_subconfig(COURSE_CONFIG.name, str(COURSE_CONFIG.parent))  # noqa: F821 - provided by nbgrader
