"""Configuración de nbgrader de tu copia de la tarea: no la edites.

`nbgrader validate` y el botón «Validate» de JupyterLab leen este archivo
cuando se ejecutan en esta carpeta (abre JupyterLab o la terminal aquí).
Pone los mismos límites que la corrección:

* cada celda tiene 60 s (nbgrader, sin este archivo, da 30 s);
* lo que tu código escribe en stderr (avisos de `warnings`,
  `print(..., file=sys.stderr)`) aparece como salida normal y no hace fallar
  la validación; al corregir tampoco resta puntos. Las pruebas visibles ya lo
  hacen por su cuenta con tu función, también sin este archivo.

Al corregir se usa la copia del curso de este archivo, no la tuya.
"""
c = get_config()  # noqa: F821

c.Execute.timeout = 60
c.Execute.interrupt_on_timeout = True
# Only for Validate: the kernel it starts sends stderr as ordinary output.
c.Validator.Execute.extra_arguments = [
    "--HistoryManager.hist_file=:memory:",
    "--IPKernelApp.exec_lines=import sys; sys.stderr.name = 'stdout'",
]
