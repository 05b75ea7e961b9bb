# PYTHONSTARTUP of the kernels the TA's servers start: make lab, the hub's formgrader and TAs' servers
# (here, in the profile every hub server can read; README, «Seguridad»).
#
# Those servers run with PYTHONSAFEPATH=1, so `python -m ipykernel_launcher` started in a student's
# folder never runs a file of the student's with that name, and IPython does not put the folder
# first on sys.path either.  A lesson still imports its explorable from its own folder: the
# folder goes back, at the END of sys.path, after the standard library and the environment's
# packages, so a student's numpy.py (or any module the environment has) never shadows the real one.
# No comment block as a docstring and no names left behind: IPython runs this in the user's namespace.
import os as _curso_os
import sys as _curso_sys

if _curso_os.getcwd() not in _curso_sys.path:
    _curso_sys.path.append(_curso_os.getcwd())
del _curso_os, _curso_sys
