# PYTHONSTARTUP of the kernels the TA's servers start: make lab, the hub's formgrader and TAs' servers
# (here, in the profile every hub server can read; README, «Seguridad»).
#
# Those servers run with PYTHONSAFEPATH=1, so `python -m ipykernel_launcher` started in a student's
# folder never runs a file of the student's with that name, and IPython does not put the folder
# first on sys.path either.  A lesson still imports its explorable from its own folder: the
# folder goes back, at the END of sys.path, after the standard library and the environment's
# packages, so a student's numpy.py (or any module the environment has) never shadows the real one.
#
# In a student's submission (a folder <course>/submitted|autograded|feedback/<student>/<assignment>/, the
# TA opening it in JupyterLab), the folder does NOT go back: libraries import optional modules the
# environment lacks long after the start (Tab completion: jedi tries `colorama`, `numpydoc`,
# `_typeshed`; the contextual help: pygments tries `ctags`), and a student's colorama.py there ran as the
# TA with no cell run (a hostile tester's F1, issue 19).  Only the assignment's own modules import, by
# name, from the course's source/<assignment>/ (what autograde also uses); nothing else of the folder.
# No comment block as a docstring and no names left behind: IPython runs this in the user's namespace.


def _curso_arrancar():
    import importlib.util
    import os
    import sys

    carpeta = os.getcwd()
    partes = os.path.realpath(carpeta).split(os.sep)
    fuente = None
    for k in range(len(partes) - 1, 2, -1):
        if partes[k - 2] in ("submitted", "autograded", "feedback"):
            candidata = os.path.join(os.sep.join(partes[:k - 2]) or os.sep, "source", partes[k])
            if os.path.isdir(candidata):
                fuente = candidata
                break
    if fuente is None:
        if carpeta not in sys.path:
            sys.path.append(carpeta)
        return
    modulos = {nombre[:-3]: os.path.join(fuente, nombre) for nombre in os.listdir(fuente)
               if nombre.endswith(".py") and nombre[:-3].isidentifier() and nombre != "nbgrader_config.py"}

    class ModulosDeLaTarea:
        """Finds only the assignment's own top-level modules, in the course's source/<assignment>/."""

        def find_spec(self, nombre, ruta=None, objetivo=None):
            if ruta is None and nombre in modulos and os.path.isfile(modulos[nombre]):
                return importlib.util.spec_from_file_location(nombre, modulos[nombre])
            return None

    sys.meta_path.append(ModulosDeLaTarea())


_curso_arrancar()
del _curso_arrancar
