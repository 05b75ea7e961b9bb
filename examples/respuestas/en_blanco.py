# Alumna de muestra que entrega las dos tareas sin tocar: la nota es 0.
