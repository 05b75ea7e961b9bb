"""Due dates and late warnings in nbgrader's Assignments tab (see ``lista`` and the labextension)."""
