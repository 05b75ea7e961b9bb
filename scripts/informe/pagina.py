"""Write the class report: one self-contained Spanish HTML page and CSVs per assignment.

Layout of ``informe/`` (course root)::

    informe.html                      every assignment; charts embedded as data: URIs
    <tarea>/veredictos.csv            one row per student × graded test cell (the verdicts, exported)
    <tarea>/distribucion.csv          histogram of the scores (bars: centre, from, to, submissions)
    <tarea>/propiedades.csv           per-property pass rates (over those who attempted) and «sin contestar»
    <tarea>/errores.csv               known mistakes ranked by students
    <tarea>/cuestionario.csv          per quiz question: title, share correct (over those who answered),
                                      «sin contestar», most chosen wrong answer
    <tarea>/incidencias.csv           who could not be graded, lost points without being judged, or did
                                      not submit, and why

Student ids and answers are hostile text: every value is escaped in the HTML
(``html.escape``) and, in the CSVs, a text field that a spreadsheet would run
as a formula (``=``, ``+``, ``-``, ``@``…) gets a leading apostrophe.  The page
loads nothing (no scripts, no CDN, no fonts) and contains no hidden-test code,
no reference value and no student's code.
"""
from __future__ import annotations

import csv
import html
from datetime import datetime, timezone
from pathlib import Path

from grader_tests.extensiones_nbgrader.plazos import ZONA_DEL_CURSO, duracion, mostrar
from lms.formatos import celda_inerte
from scripts.informe import graficos
from scripts.informe.datos import REGLA, SIN_ENTREGA, Resumen, cuenta, porcentaje

AVISO = ("Informe para el profesorado y los autores del curso: no lo compartas con el alumnado. "
         "Sólo nombra a alumnos donde hay que actuar (entregas con incidencias); no contiene pruebas "
         "ocultas, valores de referencia ni código de ninguna entrega.")

ESTILO = """
body { font-family: system-ui, "Segoe UI", "DejaVu Sans", sans-serif; color: #111; background: #fff;
       max-width: 60rem; margin: 1.5rem auto; padding: 0 1rem; line-height: 1.45; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { margin-top: 2.2rem; border-bottom: 2px solid #0072B2; }
h3 { margin-top: 1.4rem; }
.aviso { border-left: 4px solid #D55E00; background: #fff4ec; padding: .5rem .8rem; }
.repasar { border: 1px solid #0072B2; background: #eef6fb; padding: .4rem 1rem; }
table { border-collapse: collapse; margin: .5rem 0 1rem; width: 100%; font-size: .92rem; }
th, td { border: 1px solid #bbb; padding: .25rem .45rem; text-align: left; vertical-align: top; }
th { background: #e8e8e8; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: .5rem 0 1rem; } figure img { max-width: 100%; height: auto; }
figcaption { font-size: .85rem; color: #444; }
.nota { color: #444; font-size: .9rem; }
@media print {
  body { max-width: none; margin: 0; font-size: 10pt; }
  h2 { break-before: page; } h2.primera { break-before: auto; }
  figure, table, tr { break-inside: avoid; }
  .aviso, .repasar, th { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
"""

CABECERAS = {
    "veredictos": ["alumno", "cuaderno", "grade_id", "propiedad", "puntos", "maximo", "motivo", "intentada",
                   "errores", "respuesta"],
    "distribucion": ["puntos", "desde", "hasta", "entregas"],
    "propiedades": ["grade_id", "funcion", "propiedad", "intentaron", "aprobadas", "porcentaje", "sin_contestar"],
    "errores": ["id", "nombre", "categoria", "seccion", "funcion", "alumnos", "intentaron", "porcentaje"],
    "cuestionario": ["grade_id", "variable", "pregunta", "contestaron", "correctas", "porcentaje", "sin_contestar",
                     "ilegibles", "respuesta_incorrecta_mas_elegida", "veces"],
    "incidencias": ["alumno", "motivo", "celdas", "puntos_perdidos"],
    "plazo": ["alumno", "entregada", "plazo", "prorroga", "segundos_tarde", "retraso", "penalizacion",
              "nota_antes", "nota_final", "pendiente_de_revision"],
}


def e(texto: object) -> str:
    """HTML-escaped text (quotes included)."""
    return html.escape(str(texto), quote=True)


def num(x: float) -> str:
    """A score as every TA-facing output of the course writes it: ``7.5`` → ``"7.5"``, ``3.0`` → ``"3"``.

    Decimal point, not the Spanish comma: the same number must read the same in this report, the
    ``make grade`` table, formgrader (nbgrader's), the feedback and ``grades.csv`` (an LMS import
    needs the point), so a TA can compare them at a glance (issue 21's TA report).  The one
    exception is Moodle's worksheet, written with the mark of the worksheet the TA downloaded.
    """
    return f"{x:g}"


def celda_csv(valor: object) -> object:
    """A CSV value a spreadsheet will not run (``lms.formatos.celda_inerte`` for text; numbers as they are)."""
    return celda_inerte(valor) if isinstance(valor, str) else valor


def _escribir_csv(ruta: Path, cabecera: list[str], filas: list[list]) -> None:
    # every text quoted: a spreadsheet that splits on ";" (Spanish locales) keeps "p;=1+2" whole
    with open(ruta, "w", encoding="utf-8", newline="") as archivo:
        escritor = csv.writer(archivo, quoting=csv.QUOTE_NONNUMERIC)
        escritor.writerow(cabecera)
        escritor.writerows([[celda_csv(v) for v in fila] for fila in filas])


def distribucion(resumen: Resumen) -> list[list]:
    """Rows ``[puntos, desde, hasta, entregas]``: the histogram's bars (``graficos.recuento``).

    A bar counts the scores from ``desde`` up to, not including, ``hasta``; the last
    one only the full score (``desde == hasta``).
    """
    return [[round(c, 4), round(a, 4), round(b, 4), n] for c, a, b, n in graficos.recuento(resumen.notas,
                                                                                            resumen.maximo)]


def _tasa_csv(tasa: float, intentos: int) -> object:
    """A rate as a percentage with one decimal; empty when nobody attempted (no rate at all)."""
    return round(100 * tasa, 1) if intentos else ""


def _tasa(tasa: float, intentos: int) -> str:
    return porcentaje(tasa) if intentos else "—"


def escribir_csvs(resumen: Resumen, carpeta: Path, zona: str = ZONA_DEL_CURSO) -> list[Path]:
    """The CSVs of one assignment in ``carpeta`` (created); returns their paths."""
    carpeta.mkdir(parents=True, exist_ok=True)
    filas = {
        "veredictos": [[f[c] for c in CABECERAS["veredictos"]] for f in resumen.exportacion],
        "distribucion": distribucion(resumen),
        "propiedades": [[f.grade_id, f.funcion, f.descripcion, f.intentos, f.aprobadas, _tasa_csv(f.tasa, f.intentos),
                         f.sin_contestar] for f in resumen.propiedades],
        "errores": [[f.id, f.nombre, f.categoria, f.seccion, f.funcion, f.alumnos, f.intentos,
                     _tasa_csv(f.tasa, f.intentos)] for f in resumen.errores],
        "cuestionario": [[f.grade_id, f.variable, f.titulo, f.intentos, f.correctas, _tasa_csv(f.tasa, f.intentos),
                          f.sin_contestar, f.ilegibles, f.error_frecuente or "", f.veces_error_frecuente]
                         for f in resumen.preguntas],
        "incidencias": [[i.alumno, i.motivo, " ".join(i.celdas),
                         "" if i.puntos_perdidos is None else i.puntos_perdidos] for i in resumen.incidencias],
        "plazo": [[x.alumno, _instante(x.entregada, zona), _instante(x.plazo, zona), _prorroga(x.prorroga),
                   round(x.segundos_tarde, 3), duracion(x.segundos_tarde) if x.segundos_tarde else "",
                   round(x.penalizacion, 4), x.puntos, round(max(0.0, x.puntos - x.penalizacion), 4),
                   "sí" if x.alumno in resumen.pendientes else ""]
                  for x in _con_plazo(resumen)],
    }
    rutas = []
    for nombre, cabecera in CABECERAS.items():
        ruta = carpeta / f"{nombre}.csv"
        _escribir_csv(ruta, cabecera, filas[nombre])
        rutas.append(ruta)
    return rutas


def _con_plazo(r: Resumen) -> list:
    """Submissions with something about their due date or review: late, with an extension, or held."""
    vistos, filas = set(), []
    for x in sorted(r.tardias + r.con_prorroga, key=lambda x: x.alumno):
        if x.alumno not in vistos:
            vistos.add(x.alumno)
            filas.append(x)
    return filas


def _instante(ingenua_utc, zona: str = ZONA_DEL_CURSO) -> str:
    return "" if ingenua_utc is None else mostrar(ingenua_utc, zona)


def _prorroga(delta) -> str:
    return duracion(delta.total_seconds()) if delta else ""


def _seccion_de_plazo(r: Resumen, politica: str, zona: str = ZONA_DEL_CURSO) -> list[str]:
    """Due date, late submissions with their penalty, extensions and submissions held for review."""
    partes = []
    if r.plazo is None and not r.tardias and not r.con_prorroga and not r.pendientes:
        return partes
    partes.append("<h3>Plazo, entregas tardías y revisiones pendientes</h3>")
    if r.plazo is not None:
        partes.append(f'<p class="nota">Plazo: {e(mostrar(r.plazo, zona))}. {e(politica)}</p>')
    filas = _con_plazo(r)
    if filas:
        partes.append(_tabla(["alumno", "entregada", "plazo (con prórroga)", "prórroga", "retraso", "penalización",
                              "nota", "nota final"],
                             [[x.alumno, _instante(x.entregada, zona), _instante(x.plazo, zona), _prorroga(x.prorroga) or "—",
                               duracion(x.segundos_tarde) if x.segundos_tarde else "a tiempo",
                               f"−{num(round(x.penalizacion, 2))}" if x.penalizacion else "—", num(x.puntos),
                               num(round(max(0.0, x.puntos - x.penalizacion), 2))] for x in filas], {5, 6, 7}))
    elif r.plazo is not None:
        partes.append('<p class="nota">Todas las entregas llegaron a tiempo.</p>')
    if r.pendientes:
        partes.append(f'<p><strong>Pendientes de revisión ({len(r.pendientes)}):</strong> '
                      + ", ".join(e(a) for a in r.pendientes)
                      + ". Entregas nuevas con notas a mano de la anterior sin revisar: sus comentarios no se "
                        "publican hasta que se revisen en formgrader.</p>")
    return partes


def _tabla(cabecera: list[str], filas: list[list[str]], numericas: set[int] = frozenset()) -> str:
    """An HTML table; every cell is escaped here."""
    partes = ["<table><thead><tr>", *(f"<th>{e(c)}</th>" for c in cabecera), "</tr></thead><tbody>"]
    for fila in filas:
        partes.append("<tr>" + "".join(f'<td class="n">{e(v)}</td>' if i in numericas else f"<td>{e(v)}</td>"
                                       for i, v in enumerate(fila)) + "</tr>")
    partes.append("</tbody></table>")
    return "".join(partes)


def _figura(uri: str, alternativo: str, pie: str) -> str:
    return (f'<figure><img src="{e(uri)}" alt="{e(alternativo)}"><figcaption>{e(pie)}</figcaption></figure>')


def _linea_de_entregas(r: Resumen) -> str:
    """``6 entregas en el libro de notas (de 8 alumnos: 2 sin entrega); 5 con veredictos…``, with plurals."""
    texto = f"{cuenta(len(r.notas), 'entrega')} en el libro de notas"
    if r.sin_entrega:
        texto += f" (de {cuenta(r.alumnos, 'alumno')}: {len(r.sin_entrega)} sin entrega)"
    texto += f"; {r.juzgadas} con veredictos del corrector"
    if r.en_blanco:
        texto += f", {cuenta(r.en_blanco, 'en blanco', 'en blanco')} (ninguna celda contestada)"
    return texto + f". Nota máxima: {num(r.maximo)} {'punto' if r.maximo == 1 else 'puntos'}."


def seccion(resumen: Resumen, umbral_acierto: float, primera: bool = False, politica: str = "",
            zona: str = ZONA_DEL_CURSO) -> str:
    """The HTML of one assignment."""
    r = resumen
    clase = ' class="primera"' if primera else ""
    partes = [f'<h2 id="{e(r.tarea)}"{clase}>{e(r.tarea)}</h2>', f'<p class="nota">{e(_linea_de_entregas(r))}</p>']
    partes += _seccion_de_plazo(r, politica, zona)
    if r.notas:
        partes.append(_figura(graficos.histograma(r.notas, r.maximo), f"Histograma de las notas de {r.tarea}",
                              "Notas del libro de notas (con las correcciones a mano, si las hay; antes de la "
                              "penalización por retraso). Cada barra cuenta las notas desde su valor hasta el "
                              "siguiente; la última, en verde, sólo la nota máxima."))
    limite = porcentaje(umbral_acierto)
    partes.append("<h3>Propiedades del ejercicio: alumnos que las cumplen</h3>")
    if r.propiedades:
        partes.append(_figura(
            graficos.barras([f"{f.funcion}: {f.descripcion}" for f in r.propiedades], [f.tasa for f in r.propiedades],
                            "Alumnos que superan cada comprobación", umbral_acierto,
                            [f"{_tasa(f.tasa, f.intentos)} ({f.aprobadas} de {f.intentos})" for f in r.propiedades]),
            f"Porcentaje de alumnos que cumplen cada propiedad en {r.tarea}",
            f"Sobre quienes escribieron la función. Azul: la cumple al menos el {limite}; naranja: menos del "
            f"{limite} (línea discontinua)."))
        partes.append(_tabla(["función", "propiedad", "celda", "la cumplen", "la intentaron", "%", "sin contestar"],
                             [[f.funcion, f.descripcion, f.grade_id, f.aprobadas, f.intentos,
                               _tasa(f.tasa, f.intentos), f.sin_contestar] for f in r.propiedades], {3, 4, 5, 6}))
    else:
        partes.append('<p class="nota">Ninguna celda del ejercicio tiene veredictos.</p>')
    partes.append("<h3>Errores conocidos, de más a menos frecuente</h3>")
    if r.errores:
        partes.append(_tabla(["error", "función", "sección de la lección para repasar", "alumnos",
                              "escribieron la función", "%"],
                             [[f.nombre, f.funcion, f.seccion, f.alumnos, f.intentos, _tasa(f.tasa, f.intentos)]
                              for f in r.errores], {3, 4, 5}))
    else:
        partes.append('<p class="nota">El corrector no reconoció ningún error conocido.</p>')
    partes.append("<h3>Cuestionario</h3>")
    if r.preguntas:
        partes.append(_figura(graficos.barras([f.nombre for f in r.preguntas], [f.tasa for f in r.preguntas],
                                              "Aciertos por pregunta", umbral_acierto,
                                              [f"{_tasa(f.tasa, f.intentos)} ({f.correctas} de {f.intentos})"
                                               for f in r.preguntas]),
                              f"Porcentaje de respuestas correctas por pregunta en {r.tarea}",
                              f"Sobre quienes contestaron. Azul: la acierta al menos el {limite}; naranja: menos "
                              f"del {limite} (línea discontinua)."))
        partes.append(_tabla(["pregunta", "variable", "correctas", "contestaron", "%", "sin contestar", "ilegibles",
                              "respuesta incorrecta más elegida (veces)"],
                             [[f.nombre, f.variable, f.correctas, f.intentos, _tasa(f.tasa, f.intentos),
                               f.sin_contestar, f.ilegibles,
                               f"«{f.error_frecuente}» ({f.veces_error_frecuente})" if f.error_frecuente is not None
                               else "—"] for f in r.preguntas], {2, 3, 4, 5, 6}))
    else:
        partes.append('<p class="nota">Esta tarea no tiene cuestionario calificado.</p>')
    partes.append("<h3>Entregas con incidencias</h3>")
    if r.sin_entrega:
        partes.append(f'<p><strong>Sin entrega ({len(r.sin_entrega)}):</strong> '
                      + ", ".join(e(a) for a in r.sin_entrega) + "</p>")
    con_entrega = [i for i in r.incidencias if not (i.puntos_perdidos is None and i.motivo == SIN_ENTREGA)]
    if con_entrega:
        partes.append('<p class="nota">Entregas que no se pudieron calificar o que perdieron puntos sin que el '
                      'corrector pudiera juzgar la celda. Los demás detalles están en sus comentarios.</p>')
        partes.append(_tabla(["alumno", "motivo", "celdas", "puntos perdidos"],
                             [[i.alumno, i.motivo, ", ".join(i.celdas) or "—",
                               "todo el cuaderno" if i.puntos_perdidos is None else num(i.puntos_perdidos)]
                              for i in con_entrega], {3}))
    else:
        partes.append('<p class="nota">Ninguna de las entregas.</p>' if r.sin_entrega else
                      '<p class="nota">Ninguna.</p>')
    return "\n".join(partes)


def pagina(resumenes: list[Resumen], umbral_error: float, umbral_acierto: float,
           fecha: datetime | None = None, politica: str = "", zona: str = ZONA_DEL_CURSO) -> str:
    """The whole HTML document (Spanish, self-contained).

    ``fecha``: when it was generated (aware, or naive UTC; default now); every time on the page,
    this one too, is shown in ``zona`` (the course's, ``c.PlazosDelCurso.zona``) and says so.
    """
    fecha = (fecha or datetime.now(timezone.utc)).replace(second=0, microsecond=0)
    partes = ['<!DOCTYPE html>', '<html lang="es"><head><meta charset="utf-8">',
              '<meta name="viewport" content="width=device-width, initial-scale=1">',
              "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; "
              "style-src 'unsafe-inline'\">",
              '<title>Informe de la clase</title>', f"<style>{ESTILO}</style></head><body>",
              "<h1>Informe de la clase</h1>",
              f'<p class="nota">Generado el {e(mostrar(fecha, zona))} a partir del libro de notas y de los '
              'veredictos guardados por el corrector.</p>',
              f'<p class="aviso"><strong>Sólo para el profesorado.</strong> {e(AVISO)}</p>',
              '<section class="repasar"><h3>Qué repasar</h3>',
              f'<p class="nota">Errores conocidos que comete al menos el {porcentaje(umbral_error)} de quienes '
              f'escribieron la función; propiedades del ejercicio y preguntas del cuestionario que se cumplen o se '
              f'aciertan en menos del {porcentaje(umbral_acierto)}. {e(REGLA)}</p>']
    con_algo = [r for r in resumenes if r.repasar]
    for r in con_algo:
        partes.append(f"<h4>{e(r.tarea)}</h4><ul>" + "".join(f"<li>{e(linea)}</li>" for linea in r.repasar)
                      + "</ul>")
    if not con_algo:
        partes.append("<p>Nada supera los umbrales.</p>")
    partes.append("</section>")
    if resumenes:
        partes.append("<nav><p>Tareas: " + ", ".join(f'<a href="#{e(r.tarea)}">{e(r.tarea)}</a>'
                                                      for r in resumenes) + "</p></nav>")
    else:
        partes.append("<p>El libro de notas no tiene ninguna entrega.</p>")
    partes += [seccion(r, umbral_acierto, primera=i == 0, politica=politica, zona=zona)
               for i, r in enumerate(resumenes)]
    partes.append("</body></html>")
    return "\n".join(partes)

