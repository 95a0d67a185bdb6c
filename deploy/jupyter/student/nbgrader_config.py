"""nbgrader for a student's server on the hub: which course, and where assignments are exchanged."""

import os

from setwidgets.hub import COURSE_ID

c = get_config()  # noqa: F821 - provided by nbgrader when it reads this file
c.CourseDirectory.course_id = COURSE_ID
c.Exchange.root = os.environ["SETWIDGETS_EXCHANGE"]
# Validate's kernel talks over socket files in the student's own runtime folder, as the server's
# kernels do, not over TCP ports any user of the machine can listen to (setwidgets.hub.kernels).
c.Execute.kernel_manager_class = "setwidgets.hub.kernels.PrivateKernelManager"
