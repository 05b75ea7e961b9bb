/*
 * MathJax 2.7 configuration of formgrader's submission page (the course's; plantillas/formgrader).
 * nbconvert's template configured MathJax with an inline <script type="text/x-mathjax-config">,
 * which the page's CSP forbids; MathJax 2 reads the same settings from window.MathJax when it is
 * set before MathJax.js loads.  MathJax itself comes from this server (jupyter-server-mathjax).
 */
window.MathJax = {
    TeX: {equationNumbers: {autoNumber: "AMS", useLabelIds: true}},
    tex2jax: {
        inlineMath: [["$", "$"], ["\\(", "\\)"]],
        displayMath: [["$$", "$$"], ["\\[", "\\]"]],
        processEscapes: true,
        processEnvironments: true
    },
    displayAlign: "center",
    // HTML-CSS output with the STIX-Web fonts jupyter-server-mathjax ships: Chromium now has MathML,
    // so "HTMLorMML" would choose NativeMML, whose @font-face asks for TeX .otf fonts that are not there
    MMLorHTML: {prefer: "HTML"},
    messageStyle: "none",
    menuSettings: {zoom: "None"},
    CommonHTML: {linebreaks: {automatic: true}},
    // The -full config carries NativeMML too, and its styles give the hidden MathML that screen readers
    // read (AssistiveMML) @font-face rules with TeX .otf fonts jupyter-server-mathjax does not ship: a 404
    // per font as soon as a formula uses \mathbb, \mathcal, \mathfrak or \mathscr (issue 21's TA report).
    // The same faces from installed fonts only: nothing to fetch, and that MathML is never drawn.
    NativeMML: {styles: {
        "@font-face /*1*/": {"font-family": "MathJax_Caligraphic-WEB", src: "local('MathJax_Caligraphic')"},
        "@font-face /*2*/": {"font-family": "MathJax_Caligraphic-WEB", "font-weight": "bold", src: "local('MathJax_Caligraphic Bold')"},
        "@font-face /*3*/": {"font-family": "MathJax_AMS-WEB", src: "local('MathJax_AMS')"},
        "@font-face /*4*/": {"font-family": "MathJax_Script-WEB", src: "local('MathJax_Script')"},
        "@font-face /*5*/": {"font-family": "MathJax_Fraktur-WEB", src: "local('MathJax_Fraktur')"},
        "@font-face /*6*/": {"font-family": "MathJax_Fraktur-WEB", "font-weight": "bold", src: "local('MathJax_Fraktur Bold')"}
    }},
    // HTML-CSS probes web-font loading against a blank face whose src is url('about:blank'): the page's CSP
    // (font-src 'self' data:) blocks it and the console said so on every submission page (fifth TA's report,
    // P3).  The same face from an installed font only: nothing to fetch, and blocked or missing it is the
    // same fallback for the probe.
    "HTML-CSS": {linebreaks: {automatic: true}, availableFonts: [], preferredFont: null, webFont: "STIX-Web", imageFont: null,
                 styles: {"@font-face": {"font-family": "MathJax_Blank", src: "local('MathJax_Blank')"}}}
};
