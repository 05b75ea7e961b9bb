/*
 * The course's layer over nbgrader's formgrader views (plantillas/formgrader/README.md).
 *
 * Loaded at the end of every formgrader list page, after nbgrader's page script
 * and before its views are built (on window load).  nbgrader's views put the
 * API's values (student ids, assignment and notebook names) into link URLs and
 * POST URLs unencoded, and one of them into HTML; here each of those is rebuilt
 * with every value encoded as one path segment or written as text.  What the
 * views show as text (jQuery .text()) is left as nbgrader wrote it.
 *
 * Two things nbgrader's views do not show, added here from the course's endpoints
 * (grader_tests/extensiones_nbgrader/formgrader_avisos.py), always as text:
 * - late work: under each score of a late submission (Manage Students, a student's assignments and
 *   notebooks, an assignment's submissions, Manual Grading's list of submissions), «⚠ tarde: −1 →
 *   9 / 18»: the penalty and the score after it (nbgrader's own number is before it), with the TA
 *   table's sentence as the tooltip;
 * - a student without names (the hub passes none to nbgrader): Manage Submissions and Manage Students
 *   showed «None, None» and the email «None»; the name is the student's id (or the one name given)
 *   and a missing email «—»;
 * - Generate / Release Feedback refused only because submissions are held for review: a Spanish
 *   dialog with who, what to do and a link to each submission page (no log, no traceback).
 */
(function () {
    "use strict";

    var c = window.curso;
    var enc = c.codificar;
    var raiz = c.raiz;
    var pagina = c.datos.pagina;

    // wrap a view's render: run nbgrader's, then fix what it built
    var despuesDeRender = function (vista, arreglo) {
        if (!vista || !vista.prototype || typeof vista.prototype.render !== "function") {
            return;
        }
        var original = vista.prototype.render;
        vista.prototype.render = function () {
            var resultado = original.apply(this, arguments);
            arreglo.call(this);
            return resultado;
        };
    };

    // a student's name as the lists show it: nbgrader's «last, first» when both are there, the one
    // given, else the student id (nbgrader wrote «None, None»); in the cell's link if it has one, as text
    var nombreVisible = function (modelo, id) {
        var partes = [modelo.get("last_name"), modelo.get("first_name")].filter(function (x) {
            return x !== null && x !== undefined && String(x).trim() !== "";
        });
        return partes.length ? partes.join(", ") : String(id);
    };
    var conNombre = function (celda, modelo, id) {
        var nombre = nombreVisible(modelo, id);
        var enlace = celda.find("a");
        celda.attr("data-order", nombre);
        if (enlace.length) {
            enlace.text(nombre);
        } else if (celda.text() !== "Please wait...") {
            celda.text(nombre);
        }
    };

    // a view's POST action (autograde, release...): nbgrader's, with the URL built from encoded parts
    var accion = function (vista, metodo, url) {
        if (!vista || !vista.prototype) {
            return;
        }
        vista.prototype[metodo] = function () {
            this.clear();
            this.$name.text("Please wait...");
            $.post(url.call(this))
                .done(_.bind(this[metodo + "_success"], this))
                .fail(_.bind(this[metodo + "_failure"], this));
        };
    };

    // ------------------------------------------------------------------ late work on the lists

    var numero = function (x) {
        return String(Math.round(Number(x) * 100) / 100);
    };

    var retrasos = null;            // the course's endpoint's answer, once it arrives
    var vistas = [];                // [view, function drawing its mark]

    // «⚠ tarde: −1 → 9 / 18» under a score cell (replacing an earlier mark); the sentence as tooltip
    var marcar = function (celda, penalizacion, nota, maximo, explicacion) {
        celda.find(".curso-tarde").remove();
        var texto = penalizacion > 0
            ? "⚠ tarde: −" + numero(penalizacion) + " → " + numero(nota) + " / " + numero(maximo)
            : "⚠ tarde, sin penalización";
        celda.append($("<div/>").addClass("curso-tarde").attr("title", explicacion)
            .css({"color": "#b35900", "font-size": "90%", "white-space": "nowrap"}).text(texto));
    };

    var deAlumno = function (alumno, tarea) {
        return (retrasos ? retrasos.entregas : []).filter(function (e) {
            return e.alumno === alumno && (tarea === undefined || e.tarea === tarea);
        });
    };

    var conRetrasos = function (vista, dibujar) {
        despuesDeRender(vista, function () {
            var esta = this;
            if (!esta.cursoConRetraso) {
                esta.cursoConRetraso = true;
                vistas.push([esta, dibujar]);
            }
            if (retrasos) {
                dibujar.call(esta);
            }
        });
    };

    // Manage Assignments: what cannot be read in plazos.toml, in red, under the note on due dates
    var pintarErroresDePlazos = function (errores) {
        var nota = $("#curso-aviso-plazos");
        $("#curso-errores-plazos").remove();
        if (!nota.length || !errores.length) {
            return;
        }
        var caja = $("<div/>").attr("id", "curso-errores-plazos").addClass("alert alert-danger");
        caja.append($("<p/>").text("⚠ plazos.toml tiene " + (errores.length === 1 ? "un valor que no se aplica"
            : errores.length + " valores que no se aplican") + " (corrígelos en el archivo; la página del curso " +
            "en el hub los marca también):"));
        var lista = $("<ul/>");
        errores.forEach(function (e) { lista.append($("<li/>").text(e)); });
        caja.append(lista);
        caja.insertAfter(nota);
    };

    var pedirRetrasos = function (filtro) {
        var consulta = Object.keys(filtro).filter(function (k) { return filtro[k]; })
            .map(function (k) { return k + "=" + enc(filtro[k]); }).join("&");
        c.leer("/formgrader/curso/api/retrasos" + (consulta ? "?" + consulta : ""))
            .done(function (texto) {
                try {
                    retrasos = JSON.parse(texto);
                } catch (e) {
                    return;
                }
                vistas.forEach(function (par) { par[1].call(par[0]); });
                document.body.setAttribute("data-curso-retrasos", String(retrasos.entregas.length));
                pintarErroresDePlazos(retrasos.errores_plazos || []);
            });
    };

    if (pagina === "manage_students" && window.StudentUI) {
        conRetrasos(StudentUI, function () {
            var suyas = deAlumno(this.model.get("id"));
            if (!suyas.length) {
                return;
            }
            var penalizacion = 0, descuento = 0;
            suyas.forEach(function (e) {
                penalizacion += e.penalizacion;
                descuento += e.puntos - e.nota;
            });
            marcar(this.$score, penalizacion, this.model.get("score") - descuento, this.model.get("max_score"),
                   suyas.map(function (e) { return e.tarea + ": " + e.texto; }).join("\n"));
        });
        pedirRetrasos({});
    }

    if (pagina === "manage_students_assignments" && window.StudentSubmissionUI) {
        conRetrasos(StudentSubmissionUI, function () {
            var e = deAlumno(c.datos.student_id, this.model.get("name"))[0];
            if (e) {
                marcar(this.$score, e.penalizacion, e.nota, e.maximo, e.texto);
            }
        });
        pedirRetrasos({alumno: c.datos.student_id});
    }

    if (pagina === "manage_students_notebook_submissions" && window.StudentSubmittedNotebookUI) {
        conRetrasos(StudentSubmittedNotebookUI, function () {
            var e = deAlumno(c.datos.student_id, c.datos.assignment_id)[0];
            var nb = e && e.cuadernos[this.model.get("name")];
            if (nb) {
                marcar(this.$score, nb.penalizacion, Math.max(0, nb.puntos - nb.penalizacion),
                       this.model.get("max_score"), e.texto);
            }
        });
        pedirRetrasos({alumno: c.datos.student_id, tarea: c.datos.assignment_id});
    }

    if (pagina === "manage_submissions" && window.SubmissionUI) {
        conRetrasos(SubmissionUI, function () {
            var e = this.model.get("autograded") && deAlumno(this.model.get("student"), this.model.get("name"))[0];
            if (e) {
                marcar(this.$score, e.penalizacion, e.nota, e.maximo, e.texto);
            }
        });
        pedirRetrasos({tarea: c.datos.assignment_id});
    }

    if (pagina === "gradebook_notebook_submissions" && window.SubmittedNotebookUI) {
        conRetrasos(SubmittedNotebookUI, function () {
            var id = this.model.get("id");
            var e = deAlumno(this.model.get("student"), c.datos.assignment_id)[0];
            var nb = e && e.cuadernos[c.datos.notebook_id];
            if (nb && nb.id === id) {
                marcar(this.$score, nb.penalizacion, Math.max(0, nb.puntos - nb.penalizacion),
                       this.model.get("max_score"), e.texto);
            }
        });
        pedirRetrasos({tarea: c.datos.assignment_id});
    }

    // ------------------------------------------------- Generate / Release Feedback held back by review

    var negativa = function (r) {
        var cuerpo = $("<div/>");
        cuerpo.append($("<p/>").text(r.mensaje));
        var lista = $("<ul/>");
        (r.entregas || []).forEach(function (e) {
            var li = $("<li/>");
            if (e.id) {
                li.append($("<a/>").attr("href", raiz + "/formgrader/submissions/" + enc(e.id))
                    .attr("target", window === window.top ? "_blank" : "_self").attr("rel", "noopener")
                    .text(e.alumno + " / " + e.cuaderno));
            } else {
                li.text(e.alumno);
            }
            lista.append(li);
        });
        cuerpo.append(lista);
        if (r.detalles && r.detalles.length) {
            // each student left out, with the reason and what to do (Release Feedback, several reasons)
            var motivos = $("<ul/>");
            r.detalles.forEach(function (d) {
                motivos.append($("<li/>").text(d.alumno + ": " + d.motivo + ". Qué hacer: " + d.que_hacer));
            });
            cuerpo.append(motivos);
        }
        cuerpo.append($("<p/>").text(r.que_hacer));
        var titulo = r.titulo || (r.accion === "generar" ? "Comentarios sin generar: pendientes de revisión"
                                                         : "Comentarios sin publicar: pendientes de revisión");
        createModal("error-modal", titulo, cuerpo);
    };

    // nbgrader's «<action>_success» of a view, with the course's dialog when review held it back
    var conNegativa = function (vista, metodo) {
        if (!vista || !vista.prototype || typeof vista.prototype[metodo] !== "function") {
            return;
        }
        var original = vista.prototype[metodo];
        vista.prototype[metodo] = function (respuesta) {
            var datos = null;
            try {
                datos = JSON.parse(respuesta);
            } catch (e) {
                datos = null;
            }
            if (datos && datos.curso_revision) {
                this.model.fetch();
                negativa(datos.curso_revision);
                return undefined;
            }
            return original.apply(this, arguments);
        };
    };

    ["generate_feedback_success", "release_feedback_success"].forEach(function (metodo) {
        conNegativa(window.AssignmentUI, metodo);
        conNegativa(window.SubmissionUI, metodo);
    });

    if (pagina === "manage_submissions" && window.SubmissionUI) {
        despuesDeRender(SubmissionUI, function () {
            this.$student_name.find("a").attr("href", raiz + "/formgrader/manage_students/" +
                enc(this.model.get("student")) + "/" + enc(this.model.get("name")));
            conNombre(this.$student_name, this.model, this.model.get("student"));
        });
        ["autograde", "generate_feedback", "release_feedback"].forEach(function (metodo) {
            var api = metodo === "autograde" ? "/formgrader/api/submission/" : "/formgrader/api/assignment/";
            SubmissionUI.prototype[metodo] = function () {
                this.clear();
                this.$student_name.text("Please wait...");
                $.post(raiz + api + enc(this.model.get("name")) + "/" + enc(this.model.get("student")) + "/" + metodo)
                    .done(_.bind(this[metodo + "_success"], this))
                    .fail(_.bind(this[metodo + "_failure"], this));
            };
        });
    }

    if (pagina === "manage_assignments" && window.AssignmentUI) {
        despuesDeRender(AssignmentUI, function () {
            this.$num_submissions.find("a").attr("href",
                raiz + "/formgrader/manage_submissions/" + enc(this.model.get("name")));
        });
        ["assign", "unrelease", "release", "collect", "generate_feedback", "release_feedback"].forEach(function (metodo) {
            accion(AssignmentUI, metodo, function () {
                return raiz + "/formgrader/api/assignment/" + enc(this.model.get("name")) + "/" + metodo;
            });
        });
        $(document).on("click", "#curso-nueva-tarea", function (evento) {
            evento.preventDefault();
            createAssignmentModal();
        });
        // The course's due dates live in plazos.toml: a date typed in nbgrader's Edit dialog is
        // replaced by the file's the next time the course reads it. Said on the page and in
        // the dialog, so that it is no silent surprise (TA report, issue 21).
        var aviso = "Los plazos de este curso se fijan en plazos.toml, en la raíz del curso ([fechas] y " +
            "[prorrogas.<tarea>]), no aquí: una fecha escrita en «Due date» se sustituye por la de " +
            "ese archivo (o se borra si no da ninguna) la próxima vez que el curso lo lee (en el hub, " +
            "en unos segundos; fuera, al calificar). Cómo fijar un plazo o una prórroga: " +
            "docs/profesorado.md, «Plazos, retrasos y prórrogas».";
        $("<div/>").attr("id", "curso-aviso-plazos").addClass("alert alert-info").text(aviso)
            .insertAfter($("#accordion").first());
        pedirRetrasos({});          // and what in plazos.toml cannot be read (pintarErroresDePlazos)
        new MutationObserver(function () {
            $(".modal-body").each(function () {
                var cuerpo = $(this);
                if (cuerpo.find("input.modal-duedate").length &&
                        !cuerpo.find(".curso-aviso-plazos").length) {
                    cuerpo.append($("<p/>").addClass("curso-aviso-plazos text-warning").text(aviso));
                }
            });
        }).observe(document.body, {childList: true, subtree: true});
    }

    if (pagina === "gradebook_assignments" && window.AssignmentUI) {
        despuesDeRender(AssignmentUI, function () {
            this.$name.find("a").attr("href", raiz + "/formgrader/gradebook/" + enc(this.model.get("name")));
        });
    }

    if (pagina === "gradebook_notebooks" && window.NotebookUI) {
        despuesDeRender(NotebookUI, function () {
            this.$name.find("a").attr("href", raiz + "/formgrader/gradebook/" +
                enc(c.datos.assignment_id) + "/" + enc(this.model.get("name")));
        });
    }

    if (pagina === "gradebook_notebook_submissions") {
        $(document).on("click", "#toggle_names", function () {
            toggleAllNames();
        });
    }

    if (pagina === "manage_students" && window.StudentUI) {
        despuesDeRender(StudentUI, function () {
            this.$name.find("a").attr("href", raiz + "/formgrader/manage_students/" + enc(this.model.get("id")));
            conNombre(this.$name, this.model, this.model.get("id"));
            var email = this.model.get("email");
            if (email === null || email === undefined || email === "") {
                this.$email.attr("data-order", "").text("—");
            }
        });
        $(document).on("click", "#curso-nuevo-alumno", function (evento) {
            evento.preventDefault();
            createStudentModal();
        });
    }

    if (pagina === "manage_students_assignments" && window.StudentSubmissionUI) {
        despuesDeRender(StudentSubmissionUI, function () {
            this.$name.find("a").attr("href", raiz + "/formgrader/manage_students/" +
                enc(c.datos.student_id) + "/" + enc(this.model.get("name")));
        });
    }

    if (pagina === "manage_students_notebook_submissions" && window.StudentSubmittedNotebookUI) {
        despuesDeRender(StudentSubmittedNotebookUI, function () {
            if (this.model.get("id") === null) {
                // nbgrader appended «name (file missing)» as HTML
                this.$name.empty().text(this.model.get("name") + " (file missing)");
            } else {
                this.$name.find("a").attr("href", raiz + "/formgrader/submissions/" + enc(this.model.get("id")));
            }
        });
    }
})();
