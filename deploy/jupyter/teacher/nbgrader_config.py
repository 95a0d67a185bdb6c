"""nbgrader for the teacher's server on the hub: the course is ~/setwidgets-course.

The hub sets SETWIDGETS_COURSE (deploy/jupyterhub_config.py); the course's own configuration
there sets everything else: the course id, the gradebook, the exchange and the grading sandbox.
"""

import os

c = get_config()  # noqa: F821 - provided by nbgrader when it reads this file
load_subconfig(os.path.join(os.environ["SETWIDGETS_COURSE"], "nbgrader_config.py"))  # noqa: F821
