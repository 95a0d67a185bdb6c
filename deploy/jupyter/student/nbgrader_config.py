"""nbgrader for a student's server on the hub: which course, and where assignments are exchanged."""

import os

from setwidgets.hub import COURSE_ID

c = get_config()  # noqa: F821 - provided by nbgrader when it reads this file
c.CourseDirectory.course_id = COURSE_ID
c.Exchange.root = os.environ["SETWIDGETS_EXCHANGE"]
