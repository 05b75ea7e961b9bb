/*
 * formgrader's submission page, the course's part (plantillas/formgrader/README.md): what nbgrader
 * wrote as inline script and onclick attributes (the page's CSP forbids both), the safe utils.js
 * (loaded after formgrade.js on this page), and the course's notes above the notebook
 * (#curso-avisos), read from the course's endpoint (grader_tests/extensiones_nbgrader/formgrader_avisos.py):
 *
 * - a late submission: how late, the penalty and the score after it (formgrader's own numbers are
 *   before the penalty; grades.csv and the student's feedback are after it);
 * - a resubmission held for review (revision.py): what was put by hand on the earlier submission,
 *   the button «Aceptar la nota automática» (through formgrader's own models and API: PUT
 *   /formgrader/api/grade/<id> with no manual score, and the ⚠ note taken out of each comment box
 *   the TA did not change) and how to grade by hand instead; «✓ Revisada» once nothing is held.
 *
 * Everything is written as text (ids, names and comments come from students and the gradebook).
 * The notes are read again after every save of a score or a comment (formgrader's
 * «finished_saving»): a manual score changes the penalty, and a review resolves as the TA works.
 */
(function () {
    "use strict";

    window.curso.endurecerUtilidades();

    // nbgrader's toggle_name(), called by the eye icons
    window.toggle_name = function (on) {
        $(".name-shown").tooltip("hide");
        $(".name-hidden").tooltip("hide");
        if (on) {
            $(".name-shown").show();
            $(".name-hidden").hide();
        } else {
            $(".name-hidden").show();
            $(".name-shown").hide();
        }
    };

    var c = window.curso;
    var MARCA = "⚠ PENDIENTE DE REVISIÓN";
    var vistaPendiente = false;        // this page showed something held: say «Revisada» when it is gone
    var guardando = false;
    var siguiente = null;

    var numero = function (x) {
        return String(Math.round(Number(x) * 100) / 100);
    };

    var parrafo = function (texto) {
        return $("<p/>").text(texto);
    };

    var formgraderListo = function () {
        var fg = window.formgrader;
        return !!(fg && fg.grades && fg.grades.loaded && fg.comments && fg.comments.loaded);
    };

    var pintarRetraso = function (r) {
        var caja = $("<div/>").addClass("alert alert-warning").attr("id", "curso-retraso");
        var texto = String(r.texto || "");
        caja.append($("<p/>").append($("<strong/>").text("⚠ Entrega tardía: "))
            .append(document.createTextNode(texto.charAt(0).toUpperCase() + texto.slice(1) + ".")));
        var nota = "Nota de la tarea: " + numero(r.puntos) + " / " + numero(r.maximo) +
            " en el Formgrader (antes de la penalización); " + numero(r.nota) + " / " + numero(r.maximo) +
            " tras la penalización por retraso, la de grades.csv y la de los comentarios del alumno.";
        if (r.cuaderno && Object.keys(r.cuadernos || {}).length > 1) {
            nota += " En este cuaderno: −" + numero(r.cuaderno.penalizacion) + " de " + numero(r.cuaderno.puntos) + ".";
        }
        caja.append(parrafo(nota));
        return caja;
    };

    // a cell's name as a link to its score or comment box (ids looked up, never used as a selector)
    var irALaCelda = function (texto, id) {
        return $("<a/>").attr("href", "#").text(texto).on("click", function (evento) {
            evento.preventDefault();
            var casilla = document.getElementById(id);
            if (casilla) {
                casilla.scrollIntoView({block: "center"});
                casilla.focus();
            }
        });
    };

    var pintarRevision = function (rev) {
        var caja = $("<div/>").addClass("alert alert-danger").attr("id", "curso-revision");
        caja.append($("<p/>").append($("<strong/>").text(MARCA))
            .append(document.createTextNode(": es una entrega nueva (" + rev.desde + "). Lo que se puso a mano en " +
                "la entrega anterior no se aplica hasta que lo revises:")));
        var lista = $("<ul/>");
        rev.notas.forEach(function (n) {
            var li = $("<li/>").append(document.createTextNode("celda ")).append(irALaCelda(n.grade_id, n.grade_id));
            var antes = n.anterior === null || n.anterior === undefined ? "sin nota" : numero(n.anterior);
            if (n.extra_anterior !== null && n.extra_anterior !== undefined) {
                antes += " (+" + numero(n.extra_anterior) + " extra)";
            }
            var ahora = n.auto_score === null || n.auto_score === undefined
                ? "esta celda no tiene nota automática: escribe la tuya"
                : "la nota automática de esta entrega es " + numero(n.auto_score) + " de " + numero(n.max_score);
            lista.append(li.append(document.createTextNode(": antes " + antes + " a mano; " + ahora + ".")));
        });
        rev.comentarios.forEach(function (co) {
            var li = $("<li/>").append(document.createTextNode("comentario de ")).append(irALaCelda(co.grade_id, co.grade_id + "-comment"));
            li.append(document.createTextNode(co.anterior
                ? ": el de la entrega anterior era «" + co.anterior + "»; su casilla tiene ahora la nota ⚠."
                : ": su casilla tiene la nota ⚠ con lo retenido."));
            lista.append(li);
        });
        caja.append(lista);
        var aceptables = rev.notas.filter(function (n) { return n.auto_score !== null && n.auto_score !== undefined; });
        var boton = $("<button/>").attr("type", "button").attr("id", "curso-aceptar")
            .addClass("btn btn-primary").text("Aceptar la nota automática");
        if (!aceptables.length && !rev.comentarios.length) {
            boton.prop("disabled", true);
        }
        caja.append($("<p/>").append(boton).append(document.createTextNode(
            " cuenta la nota automática en las celdas marcadas que no hayas calificado tú y quita la nota ⚠ " +
            "de las casillas de comentario que no hayas cambiado (el comentario para el alumno queda vacío; " +
            "puedes escribir uno después).")));
        caja.append(parrafo("O califica a mano: escribe tu nota en la casilla de la celda marcada (la resaltada) " +
            "y sal de ella con Tab o con un clic fuera: se guarda sola. Cambia la nota ⚠ de la casilla de " +
            "comentario por tu comentario para esta entrega, o bórrala, y sal de ella."));
        caja.append(parrafo("Cuando este recuadro diga «Revisada», sus comentarios se pueden generar y publicar " +
            "(Generate Feedback y Release Feedback)."));
        boton.on("click", function () { aceptar(rev, boton); });
        if (!formgraderListo()) {
            boton.prop("disabled", true);
            var espera = setInterval(function () {
                if (formgraderListo()) {
                    clearInterval(espera);
                    boton.prop("disabled", !aceptables.length && !rev.comentarios.length);
                }
            }, 200);
        }
        return caja;
    };

    // the held grades still waiting and the comment boxes still holding the note, saved through formgrader's
    // own Backbone models (its API, its XSRF header, its views re-drawn); what the TA typed is never touched
    var aceptar = function (rev, boton) {
        var fg = window.formgrader;
        if (!formgraderListo() || guardando) {
            return;
        }
        guardando = true;
        boton.prop("disabled", true).text("Guardando…");
        var peticiones = [];
        rev.notas.forEach(function (n) {
            var modelo = fg.grades.get(n.id);
            if (modelo && n.auto_score !== null && n.auto_score !== undefined &&
                    modelo.get("manual_score") === null && modelo.get("needs_manual_grade")) {
                peticiones.push(modelo.save({"manual_score": null, "extra_credit": null}, {wait: true}));
            }
        });
        rev.comentarios.forEach(function (co) {
            var modelo = fg.comments.get(co.id);
            if (modelo && String(modelo.get("manual_comment") || "").indexOf(MARCA) === 0) {
                peticiones.push(modelo.save({"manual_comment": ""}, {wait: true}));
            }
        });
        $.when.apply($, peticiones.filter(Boolean)).always(function () {
            guardando = false;
            cargar();
        });
    };

    var pintar = function (datos) {
        var avisos = $("#curso-avisos");
        var nuevo = $("<div/>");
        if (datos.retraso) {
            nuevo.append(pintarRetraso(datos.retraso));
        }
        if (datos.revision) {
            vistaPendiente = true;
            nuevo.append(pintarRevision(datos.revision));
        } else if (vistaPendiente) {
            nuevo.append($("<div/>").addClass("alert alert-success").attr("id", "curso-revision")
                .append($("<strong/>").text("✓ Revisada: "))
                .append(document.createTextNode("ya no queda nada retenido de la entrega anterior. Sus comentarios " +
                    "ya se pueden generar y publicar (Generate Feedback y Release Feedback).")));
        }
        if (datos.aviso) {
            nuevo.append($("<p/>").addClass("text-muted").text(datos.aviso));
        }
        avisos.empty().append(nuevo.children());
        document.body.setAttribute("data-curso-avisos", datos.revision ? "pendiente" : "al-dia");
    };

    var cargar = function () {
        if (!c.datos.submission_id) {
            return;
        }
        c.leer("/formgrader/curso/api/entrega/" + c.codificar(c.datos.submission_id)).done(function (texto) {
            try {
                pintar(JSON.parse(texto));
            } catch (e) {
                document.body.setAttribute("data-curso-avisos", "error");
            }
        }).fail(function () {
            document.body.setAttribute("data-curso-avisos", "error");
        });
    };

    var programar = function () {
        if (siguiente !== null) {
            clearTimeout(siguiente);
        }
        siguiente = setTimeout(function () { siguiente = null; if (!guardando) { cargar(); } }, 400);
    };

    $(document).ready(function () {
        // the «Submission #n» / student name links open the read-only view of the notebook (no
        // kernel: a student's notebook opened in JupyterLab would run in the student's folder as the
        // TA); in JupyterLab's Formgrader panel (an iframe without pop-ups) in the same frame
        if (window !== window.top) {
            $("a[data-lectura]").attr("target", "_self");
        }
        $("span.glyphicon.name-hidden")
            .on("click", function () { window.toggle_name(true); })
            .tooltip({title: "Show student name", placement: "bottom", trigger: "hover"});
        $("span.glyphicon.name-shown")
            .on("click", function () { window.toggle_name(false); })
            .tooltip({title: "Hide student name", placement: "bottom", trigger: "hover"});
        cargar();
        // every score or comment formgrader saves (its views trigger it after each save)
        $(document).on("finished_saving", programar);
    });
})();
