/*
 * formgrader's submission page, the course's part (plantillas/formgrader/README.md): what nbgrader
 * wrote as inline script and onclick attributes (the page's CSP forbids both), and the safe
 * utils.js (loaded after formgrade.js on this page).
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
    });
})();
