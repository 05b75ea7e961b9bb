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
    "HTML-CSS": {linebreaks: {automatic: true}, availableFonts: [], preferredFont: null, webFont: "STIX-Web", imageFont: null}
};
