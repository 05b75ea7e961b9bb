/*
 * The course's layer over nbgrader's formgrader views (plantillas/formgrader/README.md).
 *
 * Loaded at the end of every formgrader list page, after nbgrader's page script
 * and before its views are built (on window load).  nbgrader's views put the
 * API's values (student ids, assignment and notebook names) into link URLs and
 * POST URLs unencoded, and one of them into HTML; here each of those is rebuilt
 * with every value encoded as one path segment or written as text.  What the
 * views show as text (jQuery .text()) is left as nbgrader wrote it.
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

    if (pagina === "manage_submissions" && window.SubmissionUI) {
        despuesDeRender(SubmissionUI, function () {
            this.$student_name.find("a").attr("href", raiz + "/formgrader/manage_students/" +
                enc(this.model.get("student")) + "/" + enc(this.model.get("name")));
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
