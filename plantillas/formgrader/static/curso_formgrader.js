/*
 * The course's layer under nbgrader's formgrader scripts (plantillas/formgrader/README.md).
 *
 * Loaded on every formgrader page before nbgrader's page script:
 * - reads the page data the server wrote as JSON (#curso-datos) and defines the
 *   globals nbgrader's scripts expect (base_url, assignment_id...).  The ids
 *   are URL-encoded: nbgrader's scripts only put them into URLs, and a student
 *   id like "a/../b?x" must stay one path segment;
 * - makes utils.js safe: createModal() shows a string body as text (nbgrader
 *   passed "... for student '<id>'" as HTML), and linkTo() builds links under
 *   the server's base URL (JupyterLab's /lab/tree/...), so they open when
 *   formgrader is a JupyterHub service, not /hub/tree/... (nbgrader #1034).
 */
(function () {
    "use strict";

    var nodo = document.getElementById("curso-datos");
    var datos = {};
    try {
        datos = nodo ? JSON.parse(nodo.textContent) : {};
    } catch (e) {
        datos = {};
    }

    var codificar = function (valor) {
        return encodeURIComponent(String(valor));
    };

    // "./autograded/x/y.ipynb" -> "autograded/x/y.ipynb", each segment encoded
    var ruta = function (camino, codificada) {
        var partes = String(camino || "").split("/").filter(function (p) {
            return p !== "" && p !== ".";
        });
        return partes.map(codificada === false ? String : codificar).join("/");
    };

    var raiz = String(datos.base_url || "");

    // GET of one of the course's endpoints (text: JSON.parse it).  With the XSRF token as formgrader's own
    // Backbone requests send it: under JupyterHub a script's request without it goes to the login page.
    var leer = function (camino) {
        var m = document.cookie.match(/(?:^|; )_xsrf=([^;]*)/);
        return $.ajax({url: raiz + camino, dataType: "text", cache: false,
                       headers: m ? {"X-XSRFToken": decodeURIComponent(m[1])} : {}});
    };

    window.curso = {
        datos: datos,
        codificar: codificar,
        ruta: ruta,
        raiz: raiz,
        leer: leer,
        utilidadesSeguras: false,
        endurecerUtilidades: function () {
            if (window.curso.utilidadesSeguras || typeof window.createModal !== "function") {
                return;
            }
            var crear = window.createModal;
            window.createModal = function (id, title, body, footer) {
                if (typeof body === "string") {
                    body = $("<p/>").text(body);
                }
                return crear(id, title, body, footer);
            };
            window.linkTo = enlazar;
            window.curso.utilidadesSeguras = true;
        }
    };

    // nbgrader's utils.js linkTo, with the server's base URL and encoded paths
    var enlazar = function (type, path) {
        var limpia = ruta(path, false);
        if (window === window.top) {
            return function (_, el) {
                return $(el)
                    .attr("href", raiz + "/lab/tree/" + ruta(limpia))
                    .attr("target", "_blank")
                    .attr("rel", "noopener")[0];
            };
        }
        var command = {
            notebook: "docmanager:open",
            file: "docmanager:open",
            directory: "filebrowser:go-to-path"
        }[type];
        return function (_, el) {
            return $(el)
                .attr("href", "#")
                .click(function (evento) {
                    evento.preventDefault();
                    window.parent.postMessage(
                        JSON.stringify({"command": command, "arguments": {"path": limpia}}),
                        window.location.origin
                    );
                })[0];
        };
    };

    // the globals of nbgrader's page scripts
    window.base_url = datos.pagina === "entrega" ? raiz + "/formgrader" : raiz;
    ["assignment_id", "notebook_id", "student_id", "submission_id"].forEach(function (clave) {
        if (Object.prototype.hasOwnProperty.call(datos, clave)) {
            window[clave] = codificar(datos[clave]);
        }
    });
    if (Object.prototype.hasOwnProperty.call(datos, "url_prefix")) {
        window.url_prefix = String(datos.url_prefix);
    }
    if (Object.prototype.hasOwnProperty.call(datos, "default_timezone")) {
        window.default_timezone = String(datos.default_timezone);
    }

    window.curso.endurecerUtilidades();
})();
