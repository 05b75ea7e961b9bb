/*
 * curso-atencion-interfaz: the two tooltips a student still met in English in a Spanish JupyterLab
 * (issue 22, a student's report), both hard-coded upstream, so no translation catalogue reaches them:
 *   - the notebook toolbar's overflow button («…», narrow windows): JupyterLab 4.6 builds it with
 *     nullTranslator («More commands»); the language pack has «Más comandos», used here;
 *   - nbgrader's Validate button: its tooltip is the literal «Validate Assignment». Its label stays
 *     «Validate», the name the lessons and the guides use for it;
 *   - JupyterLab's skip link, shown by the first Tab on the page: the literal «Skip to main panel»
 *     becomes «Saltar al panel principal» (issue 22, the eighth student's report).
 * Only while the interface is in Spanish (document.documentElement.lang, which JupyterLab's
 * translation plugin sets): a student who switches to English keeps JupyterLab's English.
 * A prebuilt JupyterLab 4 extension written by hand (a module-federation container with one plugin
 * that needs no shared module), like despliegue/plazos_assignments: the course needs no JavaScript
 * build step. It only sets the title and aria-label attributes of those two buttons.
 *
 * And two things of the command palette (issue 22, the fourth student's report), also while the
 * interface is in Spanish:
 *   - lumino writes its empty-search message as a literal («No commands found that match 'x'»): it
 *     becomes «Ningún comando coincide con «x»»;
 *   - «Guardar … como…» (docmanager:save-as) leaves the palette, as it left the menus and its
 *     shortcut (default_setting_overrides.d): its dialog is built with nullTranslator in JupyterLab 4.6
 *     (getSavePath is called without a translator), so it opens in English whatever the catalogue
 *     says. The palette skips the commands that are not visible, so the command's isVisible answers
 *     false for it; nothing else changes (it can still be run by id).
 */
var _JUPYTERLAB;
(function () {
  'use strict';
  var NOMBRE = 'curso-atencion-interfaz';

  // the button's widget → [English tooltip, Spanish tooltip]; the tooltip sits on the widget's node
  // or on an element inside it (a <jp-button> whose own button lives in its shadow root)
  var AYUDAS = [
    ['.jp-Toolbar-responsive-opener', 'More commands', 'Más comandos'],
    ['.validate-button', 'Validate Assignment', 'Validar la tarea: ejecuta el cuaderno y sus pruebas visibles'],
    // a Markdown cell's rendered text: JupyterLab 4.6 labels it for screen readers with the null translator
    // (a hub TA's report, F4: «Markdown Cell Content» where code cells say «Contenido de la celda de código»)
    ['.jp-MarkdownCell', 'Markdown Cell Content', 'Contenido de la celda de Markdown']
  ];

  function enEspanol() {
    return (document.documentElement.lang || '').toLowerCase().indexOf('es') === 0;
  }

  // JupyterLab's skip link (the first Tab on the page shows it): a literal «Skip to main panel» upstream
  var ENLACES = [['#jp-skiplink a.skip-link', 'Skip to main panel', 'Saltar al panel principal']];

  // «No Kernel» after Núcleo ▸ Apagar el núcleo (issue 22, a new student's report): the notebook toolbar's kernel
  // name and the status bar take it from the notebook's SessionContext, which JupyterLab 4.6 builds with the null
  // translator, so the catalogue's «Sin núcleo» never reaches it. Rewritten in those two places only.
  var SIN_NUCLEO = /\bNo Kernel\b/g;
  var DONDE_SE_NOMBRA_EL_NUCLEO = '.jp-NotebookPanel-toolbar, #jp-main-statusbar';

  function traducirSinNucleo() {
    document.querySelectorAll(DONDE_SE_NOMBRA_EL_NUCLEO).forEach(function (zona) {
      var recorrido = document.createTreeWalker(zona, NodeFilter.SHOW_TEXT);
      for (var nodo = recorrido.nextNode(); nodo; nodo = recorrido.nextNode()) {
        if (nodo.nodeValue.indexOf('No Kernel') >= 0) { nodo.nodeValue = nodo.nodeValue.replace(SIN_NUCLEO, 'Sin núcleo'); }
      }
      zona.querySelectorAll('[title*="No Kernel"]').forEach(function (elemento) {
        elemento.setAttribute('title', elemento.getAttribute('title').replace(SIN_NUCLEO, 'Sin núcleo'));
      });
    });
  }

  function traducir() {
    if (!enEspanol()) { return; }
    traducirSinNucleo();
    ENLACES.forEach(function (enlace) {
      document.querySelectorAll(enlace[0]).forEach(function (a) {
        if (a.textContent === enlace[1]) { a.textContent = enlace[2]; }
      });
    });
    AYUDAS.forEach(function (ayuda) {
      document.querySelectorAll(ayuda[0]).forEach(function (widget) {
        [widget].concat(Array.prototype.slice.call(widget.querySelectorAll('[title], [aria-label]')))
          .forEach(function (nodo) {
            ['title', 'aria-label'].forEach(function (atributo) {
              if (nodo.getAttribute(atributo) === ayuda[1]) { nodo.setAttribute(atributo, ayuda[2]); }
            });
          });
      });
    });
  }

  // the Property Inspector's JSON editors: their <label>, as MetadataEditorTool writes it
  var ROTULOS_DE_METADATOS = { 'Cell metadata': 'Metadatos de la celda', 'Notebook metadata': 'Metadatos del cuaderno' };

  // and its cell-tags field, which the celltags renderer builds with JupyterLab's null translator
  var ETIQUETAS = { 'Cell Tags': 'Etiquetas de la celda' };

  function traducirInspector() {
    if (!enEspanol()) { return; }
    document.querySelectorAll('.jp-MetadataEditorTool > label').forEach(function (rotulo) {
      var espanol = ROTULOS_DE_METADATOS[rotulo.textContent];
      if (espanol) { rotulo.textContent = espanol; }
    });
    document.querySelectorAll('.jp-PropertyInspector .jp-FormGroup-fieldLabel').forEach(function (rotulo) {
      var espanol = ETIQUETAS[rotulo.textContent];
      if (espanol) { rotulo.textContent = espanol; }
    });
    document.querySelectorAll('.jp-PropertyInspector input[placeholder="Add Tag"]').forEach(function (entrada) {
      entrada.setAttribute('placeholder', 'Añadir etiqueta');
    });
  }

  // ipywidgets' drop-down lists in a notebook's outputs (lesson 1's «Fila»; issue 22, the fifth student's
  // report): ipywidgets 8 lets their keydown bubble, so in command mode JupyterLab took ↑/↓ (another cell)
  // instead of the list (another row). JupyterLab listens for shortcuts on the document while the event
  // bubbles (bubblingKeydown), so a listener on the <select> that stops the propagation of a key without
  // Ctrl, Alt or Meta keeps the list's arrows, Home/End, PageUp/PageDown and letters for the list. The
  // shortcuts with Ctrl/Meta/Alt (Ctrl+S saves; the sixth student's report B2-1: the previous
  // data-lm-suppress-shortcuts switched them all off, so Ctrl+S did nothing there), Tab and Escape still
  // reach JupyterLab. In any language: it is behaviour, not text.
  var LISTAS_DE_WIDGETS = '.jp-OutputArea .widget-dropdown select, .jp-OutputArea .widget-select select';
  var TECLAS_PARA_JUPYTERLAB = ['Tab', 'Escape'];
  var listasProtegidas = new WeakSet();

  function teclaDeLaLista(evento) {
    if (evento.ctrlKey || evento.metaKey || evento.altKey) { return; }
    if (TECLAS_PARA_JUPYTERLAB.indexOf(evento.key) >= 0) { return; }
    evento.stopPropagation();
  }

  function protegerListas() {
    document.querySelectorAll(LISTAS_DE_WIDGETS).forEach(function (lista) {
      if (listasProtegidas.has(lista)) { return; }
      listasProtegidas.add(lista);
      lista.addEventListener('keydown', teclaDeLaLista);
    });
  }

  // Every other input of a widget in an output (lesson 2's number boxes «T (posiciones)», «d_model»,
  // «pareja i», a slider's readout, a text box; the seventh student's report B2-2): ipywidgets' text and
  // number views stop the propagation of their keydown, so after typing a value and Enter, Ctrl+S never
  // reached JupyterLab (the page's own «Save as…» opened instead and the notebook stayed unsaved). A key
  // with Ctrl or Meta (not one that edits text: copy, cut, paste, select all, undo, redo, and the arrows,
  // Home/End and deletions that move by words) is handed to JupyterLab's shortcuts here, before the view
  // stops it; lumino prevents the browser's default only when one of its shortcuts matches. Keys without
  // Ctrl/Meta stay the box's. In any language: it is behaviour, not text.
  var ENTRADAS_DE_WIDGETS = '.jp-OutputArea .jupyter-widgets input:not([type="checkbox"]):not([type="radio"]), ' +
    '.jp-OutputArea .jupyter-widgets textarea';
  var TECLAS_DE_EDICION = ['a', 'c', 'v', 'x', 'y', 'z', 'Backspace', 'Delete', 'ArrowLeft', 'ArrowRight',
    'ArrowUp', 'ArrowDown', 'Home', 'End', 'Insert'];
  var entradasProtegidas = new WeakSet();

  function teclaDeLaEntrada(evento) {
    if (!(evento.ctrlKey || evento.metaKey) || evento.defaultPrevented || !aplicacion) { return; }
    if (TECLAS_DE_EDICION.indexOf(evento.key.length === 1 ? evento.key.toLowerCase() : evento.key) >= 0) { return; }
    var comandos = aplicacion.commands;
    if (!comandos || typeof comandos.processKeydownEvent !== 'function') { return; }
    // as if the key had reached JupyterLab's listener on the document: lumino matches a shortcut's selector
    // walking up from the target only as far as the event's currentTarget (here, the box itself)
    var comoEnElDocumento = new Proxy(evento, {
      get: function (original, nombre) {
        if (nombre === 'currentTarget') { return document; }
        var valor = original[nombre];
        return typeof valor === 'function' ? valor.bind(original) : valor;
      }
    });
    comandos.processKeydownEvent(comoEnElDocumento);
    // a shortcut ran: nobody else handles this key again (JupyterLab's own listener on the document)
    if (evento.defaultPrevented) { evento.stopPropagation(); }
  }

  function protegerEntradas() {
    document.querySelectorAll(ENTRADAS_DE_WIDGETS).forEach(function (entrada) {
      if (entradasProtegidas.has(entrada)) { return; }
      entradasProtegidas.add(entrada);
      entrada.addEventListener('keydown', teclaDeLaEntrada);
    });
  }

  // nbgrader's Validate (the seventh student's report B3-4): its button label while it works and its dialogs are
  // literals in nbgrader's own extension (it has no translations), so no catalogue reaches them. While the
  // interface is in Spanish they are rewritten where they appear: the dialog's title and fixed sentences (not
  // the cells' source nor the visible tests' messages, already Spanish), the error dialogs and the button's
  // «Validating...»/«Saving...». The button keeps «Validate», the name the lessons and the guides use.
  var VALIDACION_TITULOS = { 'Validation Results': 'Resultado de la validación', 'Validation failed': 'No se pudo validar',
    'Invalid Submission': 'No se ha entregado' };
  var VALIDACION_FRASES = {
    'Success! Your notebook passes all the tests.': 'Todo bien: tu cuaderno pasa todas las pruebas visibles.',
    'The following cell failed:': 'Esta celda ha fallado:',
    'The following cell passed:': 'Esta celda ha pasado:',
    'The source of the following cell has changed, but it should not have!':
      'El código de esta celda ha cambiado, y no debía cambiar:',
    'There was an error running the validate command:': 'No se pudo ejecutar la validación:',
    'Cannot save notebook': 'No se pudo guardar el cuaderno',
    'Assignment not submitted:': 'La tarea no se ha entregado:'
  };
  var VALIDACION_PATRONES = [
    [/^The following (\S+) cell has changed to a (\S+) cell, but it should not have!$/,
      function (m) { return 'Esta celda era de tipo ' + m[1] + ' y ahora es de tipo ' + m[2] + ', y no debía cambiar:'; }],
    [/^Cannot validate: ([\s\S]*)$/, function (m) { return 'No se pudo validar: ' + m[1]; }],
    [/^Cannot check version: ([\s\S]*)$/, function (m) { return 'No se pudo comprobar la versión de nbgrader: ' + m[1]; }]
  ];
  var VALIDACION_BOTON = { 'Validating...': 'Validando…', 'Saving...': 'Guardando…' };

  function fraseDeValidacion(texto) {
    if (Object.prototype.hasOwnProperty.call(VALIDACION_FRASES, texto)) { return VALIDACION_FRASES[texto]; }
    for (var k = 0; k < VALIDACION_PATRONES.length; k++) {
      var m = VALIDACION_PATRONES[k][0].exec(texto);
      if (m) { return VALIDACION_PATRONES[k][1](m); }
    }
    return null;
  }

  function traducirValidacion() {
    if (!enEspanol()) { return; }
    document.querySelectorAll('.jp-Dialog').forEach(function (dialogo) {
      var cabecera = dialogo.querySelector('.jp-Dialog-header');
      var titulo = cabecera && cabecera.textContent.trim();
      var deValidacion = dialogo.querySelector('#validation-message') !== null;
      if (titulo && Object.prototype.hasOwnProperty.call(VALIDACION_TITULOS, titulo)) {
        deValidacion = true;
        cabecera.childNodes.forEach(function (nodo) {
          if (nodo.nodeType === Node.TEXT_NODE && nodo.nodeValue.trim() === titulo) {
            nodo.nodeValue = VALIDACION_TITULOS[titulo];
          } else if (nodo.nodeType === Node.ELEMENT_NODE && nodo.textContent.trim() === titulo) {
            nodo.textContent = VALIDACION_TITULOS[titulo];
          }
        });
      }
      if (!deValidacion) { return; }
      // the fixed sentences are a <p> of their own (the message) or the body's whole text (the error dialogs)
      dialogo.querySelectorAll('#validation-message p, #submission-message > p, .jp-Dialog-body, .jp-Dialog-body > span').forEach(function (nodo) {
        if (nodo.children.length) { return; }
        var espanol = fraseDeValidacion(nodo.textContent.trim());
        if (espanol !== null) { nodo.textContent = espanol; }
      });
    });
    document.querySelectorAll('.validate-button').forEach(function (widget) {
      [widget].concat(Array.prototype.slice.call(widget.querySelectorAll('*'))).forEach(function (nodo) {
        nodo.childNodes.forEach(function (hijo) {
          if (hijo.nodeType !== Node.TEXT_NODE) { return; }
          var texto = hijo.nodeValue.trim();
          if (Object.prototype.hasOwnProperty.call(VALIDACION_BOTON, texto)) { hijo.nodeValue = VALIDACION_BOTON[texto]; }
        });
      });
    });
  }

  // nbgrader's Assignments tab and its menu entries (issue 22, the ninth student's report: the tab was the one English
  // place left on the hub's student path). nbgrader has no translations: its assignment list writes literals
  // («Released assignments», «Fetch», «Submit», «Fetch Feedback», «(view feedback)», «No courses found.»…) into
  // the tab's HTML. While the interface is in Spanish those literals are rewritten where they appear, as whole
  // texts only (a text node whose trimmed value is one of them, a title attribute equal to one): course and
  // assignment names, timestamps and the exchange's messages are never touched, and nothing is parsed as HTML.
  // The menu entries and the tab's title are command labels and a widget title, rewritten the same way.
  var TAREAS_TEXTOS = {
    'Released, downloaded, and submitted assignments for course:': 'Tareas publicadas, descargadas y entregadas del curso:',
    'Loading, please wait...': 'Cargando…',
    'Toggle Dropdown': 'Elegir otro curso',
    'Released assignments': 'Tareas publicadas',
    'There are no assignments to fetch.': 'No hay tareas nuevas para recoger.',
    'Downloaded assignments': 'Tareas descargadas',
    'There are no downloaded assignments.': 'No hay tareas descargadas.',
    'Submitted assignments': 'Tareas entregadas',
    'There are no submitted assignments.': 'No hay tareas entregadas.',
    'Fetch': 'Recoger',
    'Fetching...': 'Recogiendo…',
    'Submit': 'Entregar',
    'submitting...': 'Entregando…',
    'Fetch Feedback': 'Recoger comentarios',
    'Fetching Feedback...': 'Recogiendo comentarios…',
    '(view feedback)': '(ver comentarios)',
    '(feedback available to fetch)': '(hay comentarios para recoger)',
    'Validating...': 'Validando…',
    'Error fetching assignment.': 'No se pudo recoger la tarea.',
    'Error fetching feedback.': 'No se pudieron recoger los comentarios.',
    'Error submitting assignment.': 'No se pudo entregar la tarea.',
    'Error validating assignment.': 'No se pudo validar la tarea.',
    'Error fetching courses!': 'No se pudo leer la lista de cursos.',
    'No courses found.': 'Todavía no hay tareas publicadas.',
    'Available formgraders': 'Formgraders disponibles',
    'There are no available formgrader services.': 'No hay ningún servicio de Formgrader.'
  };
  var TAREAS_AYUDAS = {
    'Refresh assignments list': 'Actualizar la lista de tareas',
    'Refresh formgrader list': 'Actualizar la lista de Formgraders'
  };
  var TAREAS_ROTULOS = {
    'nbgrader:open-assignment-list': 'Lista de tareas',
    'nbgrader:open-course-list': 'Lista de cursos',
    'nbgrader:open-create-assignment': 'Crear una tarea',
    'nbgrader:open-formgrader-local': 'Formgrader (local)'
  };
  var TAREAS_TITULOS = { 'Assignments': 'Tareas', 'Courses': 'Cursos' };

  // only for a command that exists: the student's menu keeps entries of nbgrader's switched-off plugins,
  // whose empty label hides them
  function rotuloDeNbgrader(id) {
    if (!enEspanol() || !Object.prototype.hasOwnProperty.call(TAREAS_ROTULOS, id)) { return null; }
    if (!aplicacion || !aplicacion.commands || !aplicacion.commands.hasCommand(id)) { return null; }
    return TAREAS_ROTULOS[id];
  }

  // where nbgrader writes names, never literals: a course's name (the list and its drop-down), and the first
  // thing in a row's name (an assignment, a notebook, a submission's timestamp). A course or assignment
  // called «Fetch» keeps its name.
  // (the course button says a course's name or, before and instead of one, these three literals)
  var TAREAS_NOMBRES = '.item_course, ul#course_list';
  var CURSO_AVISOS = ['Loading, please wait...', 'No courses found.', 'Error fetching courses!'];

  function esNombre(nodo) {
    var padre = nodo.parentElement;
    if (!padre || padre.closest(TAREAS_NOMBRES)) { return true; }
    if (padre.closest('#course_list_default')) { return CURSO_AVISOS.indexOf(nodo.nodeValue.trim()) < 0; }
    for (var n = nodo; n && n.parentElement; n = n.parentElement) {
      if (n.parentElement.classList.contains('item_name')) { return n.parentElement.firstChild === n; }
    }
    return false;
  }

  function traducirTareas() {
    if (!enEspanol()) { return; }
    document.querySelectorAll('.nbgrader-mainarea-widget').forEach(function (zona) {
      var recorrido = document.createTreeWalker(zona, NodeFilter.SHOW_TEXT);
      for (var nodo = recorrido.nextNode(); nodo; nodo = recorrido.nextNode()) {
        var valor = nodo.nodeValue, texto = valor.trim();
        if (!texto || !Object.prototype.hasOwnProperty.call(TAREAS_TEXTOS, texto) || esNombre(nodo)) { continue; }
        var inicio = valor.indexOf(texto);
        nodo.nodeValue = valor.slice(0, inicio) + TAREAS_TEXTOS[texto] + valor.slice(inicio + texto.length);
      }
      zona.querySelectorAll('[title]').forEach(function (elemento) {
        var ayuda = elemento.getAttribute('title');
        if (Object.prototype.hasOwnProperty.call(TAREAS_AYUDAS, ayuda)) { elemento.setAttribute('title', TAREAS_AYUDAS[ayuda]); }
      });
    });
    if (!aplicacion) { return; }
    var widgets;
    try { widgets = Array.from(aplicacion.shell.widgets('main')); } catch (error) { return; }
    widgets.forEach(function (widget) {
      var titulo = widget && widget.title;
      if (!titulo || !widget.hasClass || !widget.hasClass('nbgrader-mainarea-widget')) { return; }
      if (Object.prototype.hasOwnProperty.call(TAREAS_TITULOS, titulo.label)) { titulo.label = TAREAS_TITULOS[titulo.label]; }
    });
  }

  // MathJax's two scale commands in a text cell's context menu (the seventh student's report B3-3): their
  // label is built from two translated pieces («Mathjax Scale » + «x1.5» or «Reset»), which no catalogue can
  // turn into a Spanish sentence. While the interface is in Spanish they read as whole labels.
  function rotuloDeMathjax(id, args) {
    if (id !== 'mathjax:scale' || !enEspanol()) { return null; }
    var escala = args && Number(args.scale);
    if (!escala || escala === 1) { return 'Fórmulas a su tamaño normal'; }
    return 'Fórmulas al ' + String(Math.round(escala * 100)) + ' %';
  }

  // File ▸ «Cerrar el cuaderno y apagar su núcleo…» (notebook:close-and-shutdown; the sixth student's report
  // B2-1): JupyterLab 4.6 disposes of the notebook after its confirmation without the save question that
  // closing a tab asks, so the changes not saved yet were lost. The command is wrapped: a notebook with
  // unsaved changes is saved first (docmanager:save, as Ctrl+S; if saving fails, its error dialog shows and
  // nothing is closed), then JupyterLab's own command asks and closes. In any language.
  var CERRAR_Y_APAGAR = ['notebook:close-and-shutdown'];

  function conCambiosSinGuardar(app, args) {
    var actual = app.shell && app.shell.currentWidget;
    var contexto = actual && actual.context;
    var modelo = contexto && contexto.model;
    return !!(modelo && modelo.dirty && !modelo.readOnly && (!args || !args.path || args.path === contexto.path));
  }

  // lumino's CommandPalette.Renderer.formatEmptyMessage, hard-coded in English
  var SIN_RESULTADOS = /^No commands found that match '([\s\S]*)'$/;
  // commands the palette must not offer in Spanish: their dialog cannot be translated
  var FUERA_DE_LA_PALETA = ['docmanager:save-as'];

  function traducirPaleta() {
    if (!enEspanol()) { return; }
    document.querySelectorAll('.lm-CommandPalette-emptyMessage').forEach(function (mensaje) {
      mensaje.childNodes.forEach(function (nodo) {
        var partes = nodo.nodeType === Node.TEXT_NODE && SIN_RESULTADOS.exec(nodo.nodeValue);
        if (partes) { nodo.nodeValue = 'Ningún comando coincide con «' + partes[1] + '»'; }
      });
    });
  }

  // The file browser's «Modificado» column (issue 22, the fifth student's report B5): JupyterLab 4.6 writes a
  // row's relative date («hace 53 s») when it draws the row, and it skips a row whose file did not change
  // (its renderer remembers what it drew), so unless the column is resized the date stays what it was when
  // the page loaded, even after «Actualizar». Every 30 s, when the page comes back into view and after each
  // refresh of the listing's model, each row's date is written again by JupyterLab's own renderer
  // (updateItemModified, with the listing's current style: «hace 15 min», «hace 15 minutos»). In any language.
  // The renderer also remembers the date and style it wrote in each cell (_modifiedColumnLastUpdate, a
  // WeakMap) and writes nothing when they are the same: that memory is forgotten first. Both names are
  // JupyterLab 4.6's (the version the course pins; tests/navegador/test_1_interfaz_espanol.py checks it).
  var CADA_MS = 30000;
  var conectados = new WeakSet();

  function listados(app) {
    var salida = [];
    ['left', 'right', 'main'].forEach(function (zona) {
      var widgets;
      try { widgets = Array.from(app.shell.widgets(zona)); } catch (error) { return; }
      widgets.forEach(function (widget) {
        var listado = widget && widget.listing;
        if (listado && typeof listado.sortedItems === 'function' && listado.node) { salida.push(listado); }
      });
    });
    return salida;
  }

  function refrescarFechas(listado) {
    var dibujante = listado.renderer || listado._renderer;
    if (!dibujante || typeof dibujante.updateItemModified !== 'function') { return; }
    var estilo = listado._modifiedStyle || 'short';
    var recuerdo = dibujante._modifiedColumnLastUpdate;
    // the rows are in the order of sortedItems() (JupyterLab pairs them the same way)
    var filas = listado.node.querySelectorAll('.jp-DirListing-content > .jp-DirListing-item');
    Array.from(listado.sortedItems()).forEach(function (item, i) {
      var celda = filas[i] && filas[i].querySelector('.jp-DirListing-itemModified');
      if (!celda || !item || !item.last_modified) { return; }
      if (recuerdo && typeof recuerdo.delete === 'function') { recuerdo.delete(celda); }
      dibujante.updateItemModified(celda, item.last_modified, estilo);
    });
  }

  function refrescarListados(app) {
    if (document.hidden) { return; }
    listados(app).forEach(function (listado) {
      var modelo = listado.model;
      if (!conectados.has(listado) && modelo && modelo.refreshed && typeof modelo.refreshed.connect === 'function') {
        conectados.add(listado);
        modelo.refreshed.connect(function () {
          requestAnimationFrame(function () { refrescarFechas(listado); });
        });
      }
      refrescarFechas(listado);
    });
  }

  // The explorables' buttons of which one is chosen (lesson 1's «Cabeza 1» … «Suma»; the sixth student's report
  // B4-6): ipywidgets has no ARIA attributes, so the chosen map was told by its colour alone. The explorable
  // marks those buttons with the class explorable-conmutador and the chosen one with explorable-pulsado; here
  // each gets aria-pressed to match, and keeps it as the class changes. In any language.
  // A slider's handle (ipywidgets 8, noUiSlider) has no accessible name: a screen reader said «slider, 64» with
  // no hint of which one (lesson 2's «T (posiciones)», «d_model», «pareja i»; a new student's report, issue 22).
  // Each handle gets its row's label as aria-label, kept as the label changes. In any language: the label is
  // the widget's own text.
  function nombrarDeslizadores() {
    document.querySelectorAll('.jp-OutputArea .widget-slider .noUi-handle').forEach(function (asa) {
      var fila = asa.closest('.widget-slider');
      var rotulo = fila && fila.querySelector('.widget-label');
      var texto = rotulo ? rotulo.textContent.trim() : '';
      if (texto && asa.getAttribute('aria-label') !== texto) { asa.setAttribute('aria-label', texto); }
    });
  }

  var CONMUTADORES = '.jp-OutputArea .explorable-conmutador';
  var conmutadoresVigilados = new WeakSet();

  function marcarConmutador(boton) {
    var pulsado = boton.classList.contains('explorable-pulsado') ? 'true' : 'false';
    if (boton.getAttribute('aria-pressed') !== pulsado) { boton.setAttribute('aria-pressed', pulsado); }
  }

  function vigilarConmutadores() {
    document.querySelectorAll(CONMUTADORES).forEach(function (boton) {
      marcarConmutador(boton);
      if (conmutadoresVigilados.has(boton)) { return; }
      conmutadoresVigilados.add(boton);
      new MutationObserver(function () { marcarConmutador(boton); })
        .observe(boton, { attributes: true, attributeFilter: ['class'] });
      boton.addEventListener('keydown', teclaDelConmutador);
    });
  }

  // And the keyboard among those buttons (the eighth student's report, P3): the arrows on «Cabeza 2» moved
  // JupyterLab's cell selection, since a button lets its keydown bubble to the document. Within one group of
  // buttons the arrows (←/↑ the previous, →/↓ the next), Home and End move to a button and choose it, as in a
  // group of radio buttons; the event stops there. Every other key (Tab, Enter, Space, Escape, shortcuts)
  // behaves as before. In any language: it is behaviour, not text.
  var TECLAS_DEL_CONMUTADOR = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1, Home: 'primero', End: 'ultimo' };

  function teclaDelConmutador(evento) {
    if (evento.ctrlKey || evento.metaKey || evento.altKey || evento.shiftKey) { return; }
    var paso = TECLAS_DEL_CONMUTADOR[evento.key];
    if (paso === undefined) { return; }
    var boton = evento.currentTarget;
    var grupo = boton.parentElement ? Array.prototype.filter.call(boton.parentElement.children, function (otro) {
      return otro.classList && otro.classList.contains('explorable-conmutador') && !otro.disabled;
    }) : [];
    evento.preventDefault();
    evento.stopPropagation();
    if (grupo.length === 0) { return; }
    var actual = Math.max(0, grupo.indexOf(boton));
    var destino = paso === 'primero' ? 0 : paso === 'ultimo' ? grupo.length - 1
      : Math.min(grupo.length - 1, Math.max(0, actual + paso));
    if (destino === actual && grupo[destino].classList.contains('explorable-pulsado')) { return; }
    grupo[destino].focus();
    grupo[destino].click();
  }

  // A notebook opened and not touched shows no «●» (issue 22, the sixth student's report B3-3). When its kernel
  // starts, JupyterLab 4.6 writes the kernel's metadata.language_info (the Python version, the lexer…) into
  // the notebook, and the released notebooks carry only {"name": "python"}: the tab said «unsaved changes»
  // before the student did anything, and «●» no longer meant work to save. A change of language_info alone,
  // made while the notebook had nothing unsaved, leaves it clean (it is saved with the next real change).
  // Whether the notebook was clean is read as it was before the current synchronous turn, whatever the order
  // in which JupyterLab emits the metadata change and the dirty flag. In any language.
  var modelosVigilados = new WeakSet();

  function vigilarModelos(app) {
    var widgets;
    try { widgets = Array.from(app.shell.widgets('main')); } catch (error) { return; }
    widgets.forEach(function (widget) {
      var modelo = widget && widget.context && widget.context.model;
      if (!modelo || modelosVigilados.has(modelo) || !modelo.metadataChanged || !modelo.stateChanged) { return; }
      modelosVigilados.add(modelo);
      var limpio = !modelo.dirty;
      modelo.stateChanged.connect(function (m, cambio) {
        if (cambio && cambio.name === 'dirty') { queueMicrotask(function () { limpio = !modelo.dirty; }); }
      });
      modelo.metadataChanged.connect(function (m, cambio) {
        if (!cambio || cambio.key !== 'language_info' || !limpio) { return; }
        queueMicrotask(function () { if (modelo.dirty) { modelo.dirty = false; } });
      });
    });
  }

  // An explorable after Núcleo ▸ Apagar el núcleo (issue 22, a new student's report): ipywidgets marks the views
  // of a restarted kernel jupyter-widgets-disconnected (the explorable's style then shows its Spanish hint and
  // picture, respaldo_explorable.py), but not those of a kernel shut down: the controls still moved and nothing
  // said why the picture no longer changed. When a notebook is left with no kernel (or a dead one), its live
  // explorables get that class too. In any language.
  var sesionesVigiladas = new WeakSet();

  function sinNucleo(sesion) {
    var kernel = sesion.session && sesion.session.kernel;
    return !kernel || kernel.status === 'dead' || kernel.isDisposed;
  }

  function marcarExplorablesMuertos(widget, sesion) {
    if (!sinNucleo(sesion) || !widget.node) { return; }
    widget.node.querySelectorAll('.explorable-vivo').forEach(function (vista) {
      vista.classList.add('jupyter-widgets-disconnected');
    });
  }

  function vigilarNucleos(app) {
    var widgets;
    try { widgets = Array.from(app.shell.widgets('main')); } catch (error) { return; }
    widgets.forEach(function (widget) {
      var sesion = widget && widget.sessionContext;
      if (!sesion || sesionesVigiladas.has(sesion) || !sesion.kernelChanged || !sesion.statusChanged) { return; }
      sesionesVigiladas.add(sesion);
      var marcar = function () { marcarExplorablesMuertos(widget, sesion); };
      sesion.kernelChanged.connect(marcar);
      sesion.statusChanged.connect(marcar);
      if (sesion.sessionChanged) { sesion.sessionChanged.connect(marcar); }
    });
  }

  var pendiente = null;
  var aplicacion = null;
  function programar() {
    if (pendiente === null) {
      pendiente = requestAnimationFrame(function () {
        pendiente = null; traducir(); traducirPaleta(); traducirInspector(); traducirValidacion(); traducirTareas(); protegerListas(); protegerEntradas();
        vigilarConmutadores(); nombrarDeslizadores();
        if (aplicacion) { vigilarModelos(aplicacion); vigilarNucleos(aplicacion); }
      });
    }
  }

  var plugin = {
    id: NOMBRE + ':plugin',
    description: 'Ayudas emergentes en español para el botón «…» de la barra del cuaderno y el botón Validate, ' +
      'la paleta de comandos sin «Guardar como…» y con su mensaje de búsqueda sin resultados en español, ' +
      'los rótulos de los editores de metadatos del inspector de propiedades en español, ' +
      'las flechas para las listas desplegables de los widgets de un cuaderno (y Ctrl+S en ellas), ' +
      'los atajos con Ctrl (Ctrl+S) en las casillas de los widgets, las órdenes del tamaño de las fórmulas en español, ' +
      'el diálogo de Validate de nbgrader en español, la pestaña de tareas de nbgrader en español, ' +
      'guardar antes de «Cerrar el cuaderno y apagar su núcleo», un cuaderno recién abierto sin «●», ' +
      'aria-pressed en los botones de los explorables, el enlace «Saltar al panel principal» ' +
      'la fecha relativa de la columna «Modificado» del explorador, al día, ' +
      '«Sin núcleo» en la barra del cuaderno y en la de estado con el núcleo apagado ' +
      'y el aviso de los explorables con el núcleo apagado.',
    autoStart: true,
    requires: [],
    optional: [],
    activate: function (app) {
      aplicacion = app && app.shell && typeof app.shell.widgets === 'function' ? app : null;
      var comandos = app && app.commands;
      if (comandos && typeof comandos.execute === 'function') {
        var ejecutar = comandos.execute.bind(comandos);
        comandos.execute = function (id, args) {
          if (CERRAR_Y_APAGAR.indexOf(id) >= 0 && conCambiosSinGuardar(app, args)) {
            return ejecutar('docmanager:save').then(function () { return ejecutar(id, args); });
          }
          return ejecutar(id, args);
        };
      }
      if (comandos && typeof comandos.label === 'function') {
        var rotulo = comandos.label.bind(comandos);
        comandos.label = function (id, args) {
          var espanol = rotuloDeMathjax(id, args);
          if (espanol === null) { espanol = rotuloDeNbgrader(id); }
          return espanol === null ? rotulo(id, args) : espanol;
        };
      }
      if (comandos && typeof comandos.isVisible === 'function') {
        var esVisible = comandos.isVisible.bind(comandos);
        comandos.isVisible = function (id, args) {
          if (FUERA_DE_LA_PALETA.indexOf(id) >= 0 && enEspanol()) { return false; }
          return esVisible(id, args);
        };
      }
      // React re-renders a button's title when its toolbar is redrawn: watch the attributes too
      new MutationObserver(programar).observe(document.body, {
        childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['title', 'aria-label']
      });
      programar();
      if (app && app.shell && typeof app.shell.widgets === 'function') {
        setInterval(function () { refrescarListados(app); }, CADA_MS);
        document.addEventListener('visibilitychange', function () { refrescarListados(app); });
        if (app.restored && typeof app.restored.then === 'function') {
          app.restored.then(function () { refrescarListados(app); });
        }
      }
    }
  };

  _JUPYTERLAB = window._JUPYTERLAB = window._JUPYTERLAB || {};
  _JUPYTERLAB[NOMBRE] = {
    init: function () { return Promise.resolve(); },
    get: function (modulo) {
      if (modulo === './extension') {
        return Promise.resolve(function () { return { __esModule: true, default: [plugin] }; });
      }
      return Promise.reject(new Error('Module "' + modulo + '" does not exist in container.'));
    }
  };
})();
