"""Spanish (es_ES) language pack of the course for JupyterLab 4.6.

jupyterlab-language-pack-es-ES 4.5.post3 (Copyright (c) 2023 Project Jupyter Contributors,
BSD-3-Clause: ajustes_jupyterlab/traducciones/LICENSE-jupyterlab-language-pack-es-ES.txt) plus
the course's translations (ajustes_jupyterlab/traducciones/curso.po), built by
ajustes_jupyterlab/traducir.py.  jupyterlab_server finds the catalogue through this module's
entry point (``jupyterlab.languagepack``: ``es_ES``) and by its name, which it derives from the
locale for the translations of the settings and menus.
"""

__version__ = "4.6.6"
