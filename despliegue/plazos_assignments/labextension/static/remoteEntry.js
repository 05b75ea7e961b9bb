/*
 * curso-atencion-plazos: due dates and late warnings in nbgrader's Assignments tab (issue 21).
 *
 * A prebuilt JupyterLab 4 extension written by hand (a module-federation container with one
 * plugin that needs no shared module), so the course needs no JavaScript build step.  It reads
 * the fields the course's exchange list adds to nbgrader's own /assignments answer
 * (plazos_assignments/lista.py: curso_plazo, curso_entregada, curso_segundos_tarde, curso_fraccion)
 * and writes, under each assignment of the tab, its due date in the browser's time zone (and in
 * Madrid's when they differ), a warning on a fetched assignment whose due date has passed (a calm
 * note instead when the newest submission was on time), and on
 * each submission when it was sent, in the same zones and to the second (nbgrader's own text is
 * UTC with microseconds), and whether it was on time or how late, with the share of the score
 * the policy takes; the feedback of an older submission is marked as no longer valid.
 * Only textContent is written: assignment names and times are never parsed as HTML.
 */
var _JUPYTERLAB;
(function () {
  'use strict';
  var NOMBRE = 'curso-atencion-plazos';
  var MARCA = 'data-curso-plazo';
  var DIA = 86400;

  function opcion(nombre) {
    var el = document.getElementById('jupyter-config-data');
    try {
      return (JSON.parse((el && el.textContent) || '{}') || {})[nombre] || '';
    } catch (e) {
      return '';
    }
  }

  // JupyterHub accepts a cookie-authenticated request that is not a page load only with the XSRF
  // token (as JupyterLab's own requests send it): without it the request loops through the login
  function xsrf() {
    var m = document.cookie.match(/(?:^|; )_xsrf=([^;]*)/);
    return m ? decodeURIComponent(m[1]) : '';
  }

  function duracion(segundos) {
    segundos = Math.max(0, Math.floor(segundos));
    if (segundos < 60) { return segundos + ' s'; }
    var dias = Math.floor(segundos / DIA), resto = segundos % DIA;
    var horas = Math.floor(resto / 3600); resto = resto % 3600;
    var minutos = Math.floor(resto / 60), sueltos = resto % 60;
    var partes = [];
    if (dias) { partes.push(dias + (dias === 1 ? ' día' : ' días')); }
    if (horas) { partes.push(horas + ' h'); }
    if (minutos) { partes.push(minutos + ' min'); }
    if (sueltos && !dias && !horas) { partes.push(sueltos + ' s'); }
    if (partes.length === 1) { return partes[0]; }
    return partes.slice(0, -1).join(', ') + ' y ' + partes[partes.length - 1];
  }

  function fecha(instante, zona, conSegundos) {
    var opciones = { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric',
                     hour: '2-digit', minute: '2-digit', timeZoneName: 'short' };
    if (conSegundos) { opciones.second = '2-digit'; }
    if (zona) { opciones.timeZone = zona; }
    return new Intl.DateTimeFormat('es-ES', opciones).format(instante);
  }

  // an instant in the browser's zone, and in the course's when it is another one
  function enLasDosZonas(instante, zona, conSegundos) {
    var texto = fecha(instante, '', conSegundos);
    zona = zona || 'Europe/Madrid';
    if (zonaDelNavegador() && zonaDelNavegador() !== zona) {
      texto += ' (en ' + zona.split('/').pop().replace('_', ' ') + ': ' + fecha(instante, zona, conSegundos) + ')';
    }
    return texto;
  }

  function zonaDelNavegador() {
    try { return Intl.DateTimeFormat().resolvedOptions().timeZone || ''; } catch (e) { return ''; }
  }

  function porcentaje(x) {
    return (Math.round(x * 1000) / 10).toString().replace('.', ',') + ' %';
  }

  function linea(clase, texto, color) {
    var div = document.createElement('div');
    div.className = clase;
    div.textContent = texto;
    div.style.fontSize = '90%';
    div.style.whiteSpace = 'normal';
    div.style.color = color || 'var(--jp-ui-font-color2)';
    return div;
  }

  function textoDelPlazo(plazo) {
    if (!plazo || !plazo.plazo) { return 'Sin plazo de entrega fijado.'; }
    return 'Plazo de entrega' + (plazo.prorroga ? ' (con tu prórroga)' : '') + ': ' +
      enLasDosZonas(new Date(plazo.plazo), plazo.zona) + '.';
  }

  // the newest submission of `enviada` (nbgrader's «submitted» entry of the same assignment), when it was on time
  function ultimaATiempo(enviada, plazo) {
    var entregas = (enviada && enviada.submissions) || [];
    if (!entregas.length) { return null; }
    var ultima = entregas[entregas.length - 1];
    var gracia = ((plazo || {}).politica || {}).gracia_s || 0;
    return (ultima.curso_segundos_tarde || 0) > gracia ? null : ultima;
  }

  function anotarFila(fila, info, enviada) {
    var nombre = fila.querySelector('.item_name');
    if (!nombre) { return; }
    var plazo = info.curso_plazo;
    nombre.appendChild(linea('curso-plazo', textoDelPlazo(plazo)));
    if (plazo && plazo.plazo && info.status === 'fetched') {
      var resto = (new Date(plazo.plazo).getTime() - Date.now()) / 1000;
      if (resto < 0 && ultimaATiempo(enviada, plazo)) {
        // already handed in on time: no alarm, only what a new submission would mean (the newest is graded)
        nombre.appendChild(linea('curso-plazo-vencido curso-ya-entregada', '✓ Ya entregaste a tiempo. El plazo ' +
          'terminó hace ' + duracion(-resto) + ': si vuelves a entregar, la nueva entrega sustituirá a la que ' +
          'entregaste a tiempo, contará como tardía y será la que se califique, con la penalización sobre toda ' +
          'su nota. ' + ((plazo.politica || {}).texto || '')));
      } else if (resto < 0) {
        var previas = ((enviada && enviada.submissions) || []).length;
        nombre.appendChild(linea('curso-plazo-vencido', '⚠ El plazo terminó hace ' + duracion(-resto) +
          ': lo que entregues ahora contará como entrega tardía' + (previas ? ' y sustituirá a tu entrega ' +
          'anterior (se califica siempre la última, con la penalización sobre toda su nota)' : '') + '. ' +
          ((plazo.politica || {}).texto || ''), 'var(--jp-warn-color0, #b35900)'));
      } else {
        nombre.appendChild(linea('curso-plazo-resto', 'Quedan ' + duracion(resto) + '.'));
      }
    }
    var entregas = info.submissions || [];
    var filas = fila.querySelectorAll('.nested_list_item');
    for (var i = 0; i < filas.length; i++) {
      var texto = (filas[i].querySelector('.item_name') || filas[i]).textContent || '';
      for (var j = 0; j < entregas.length; j++) {
        var e = entregas[j];
        if (!e.timestamp || texto.indexOf(e.timestamp) !== 0) { continue; }
        var lugar = filas[i].querySelector('.item_name') || filas[i];
        var entregada = e.curso_entregada ? new Date(e.curso_entregada) : null;
        if (entregada && !isNaN(entregada.getTime())) {
          lugar.appendChild(linea('curso-entregada', 'Entregada el ' +
            enLasDosZonas(entregada, (plazo || {}).zona, true) + '.'));
          if (e.curso_hora_real) {
            // the copy was written after the time in its name: the course's collect counts the real time
            lugar.appendChild(linea('curso-hora-real', 'Es la hora real en que se terminó de escribir esta entrega, ' +
              'posterior a la que lleva su nombre: es la que cuenta al calificar.', 'var(--jp-warn-color0, #b35900)'));
          }
        }
        var ultima = j === entregas.length - 1 && entregas.length > 1 ? ' Es la última: la que se califica.' : '';
        var gracia = ((plazo || {}).politica || {}).gracia_s || 0;
        if (plazo && plazo.plazo && e.curso_segundos_tarde > gracia) {
          var quita = e.curso_fraccion > 0 ? ': se descontará el ' + porcentaje(e.curso_fraccion) + ' de la nota'
                                           : ' (sin penalización)';
          lugar.appendChild(linea('curso-tarde', '⚠ Entrega tardía: ' + duracion(e.curso_segundos_tarde) +
            ' después del plazo' + quita + '.' + ultima, 'var(--jp-error-color0, #c62828)'));
        } else if (plazo && plazo.plazo) {
          lugar.appendChild(linea('curso-a-tiempo', '✓ Entregada a tiempo.' + ultima,
                                  'var(--jp-success-color0, #2e7d32)'));
        }
        if (e.curso_omitidos && e.curso_omitidos.length) {
          // what the hub's submit left out (links are never followed): named, with what to do
          var nombres = e.curso_omitidos.map(function (o) { return '«' + o.ruta + '» (' + o.motivo + ')'; });
          lugar.appendChild(linea('curso-omitidos', '⚠ No se entregó: ' + nombres.join(', ') +
            (e.curso_omitidos_mas ? ' y ' + e.curso_omitidos_mas + ' más' : '') +
            '. Los enlaces simbólicos y los archivos especiales nunca se entregan; el resto sí. Si el ' +
            'profesorado necesita ese archivo, pon una copia normal en su lugar y vuelve a entregar.',
            'var(--jp-warn-color0, #b35900)'));
        }
        if (e.has_local_feedback && j === entregas.length - 1 && plazo && plazo.comentarios_desactualizados) {
          // the service found that the feedback released to this student no longer states the grade
          lugar.appendChild(linea('curso-comentarios-viejos', '⚠ Estos comentarios ya no dicen tu nota actual: ' +
            'cambió después de publicarlos (una prórroga, una revisión o una nota puesta a mano). El profesorado ' +
            'publicará unos nuevos; cuando lleguen, pulsa «Recoger comentarios».', 'var(--jp-warn-color0, #b35900)'));
        }
        if (e.has_local_feedback && j < entregas.length - 1) {
          // nbgrader keeps the feedback of every submission: an older one's no longer states the grade
          lugar.appendChild(linea('curso-comentarios-viejos', '⚠ Estos comentarios son de una entrega anterior ' +
            'y ya no valen: tu nota es la de tu última entrega' +
            (entregas[entregas.length - 1].has_local_feedback ? ' (mira sus comentarios).' :
             ' (sus comentarios llegarán cuando el profesorado los publique; entonces, pulsa «Recoger comentarios»).'),
            'var(--jp-warn-color0, #b35900)'));
        }
        break;
      }
    }
  }

  var ocupado = false, pendiente = null;

  function filasSinAnotar() {
    var filas = [];
    var listas = ['released_assignments_list', 'fetched_assignments_list', 'submitted_assignments_list'];
    for (var i = 0; i < listas.length; i++) {
      var lista = document.getElementById(listas[i]);
      if (!lista) { continue; }
      for (var j = 0; j < lista.children.length; j++) {
        var fila = lista.children[j];
        if (fila.classList.contains('list_item') && !fila.hasAttribute(MARCA)) { filas.push(fila); }
      }
    }
    return filas;
  }

  function anotar() {
    if (ocupado) { programar(); return; }
    var filas = filasSinAnotar();
    if (!filas.length) { return; }
    var cursos = {};
    filas.forEach(function (fila) {
      var curso = fila.querySelector('.item_course');
      if (curso && curso.textContent) { cursos[curso.textContent.trim()] = true; }
    });
    ocupado = true;
    var base = opcion('baseUrl') || '/';
    Promise.all(Object.keys(cursos).map(function (curso) {
      return fetch(base + 'assignments?course_id=' + encodeURIComponent(curso),
                   { credentials: 'same-origin', headers: { 'X-XSRFToken': xsrf() } })
        .then(function (r) { return r.json(); })
        .then(function (respuesta) { return { curso: curso, lista: (respuesta && respuesta.success && respuesta.value) || [] }; })
        .catch(function () { return { curso: curso, lista: [] }; });
    })).then(function (respuestas) {
      var por_tarea = {};
      respuestas.forEach(function (r) {
        r.lista.forEach(function (info) { por_tarea[r.curso + '\u0000' + info.assignment_id + '\u0000' + info.status] = info; });
      });
      filasSinAnotar().forEach(function (fila) {
        var curso = (fila.querySelector('.item_course') || {}).textContent || '';
        var nombre = fila.querySelector('.item_name > a, .item_name > span');
        var tarea = nombre ? nombre.textContent.trim() : '';
        var lista = fila.parentNode ? fila.parentNode.id : '';
        var estado = lista.indexOf('released') === 0 ? 'released' : lista.indexOf('fetched') === 0 ? 'fetched' : 'submitted';
        var info = por_tarea[curso.trim() + '\u0000' + tarea + '\u0000' + estado];
        fila.setAttribute(MARCA, '');
        if (info && info.curso_plazo) { anotarFila(fila, info, por_tarea[curso.trim() + '\u0000' + tarea + '\u0000submitted']); }
      });
    }).finally(function () { ocupado = false; });
  }

  function programar() {
    if (pendiente !== null) { clearTimeout(pendiente); }
    pendiente = setTimeout(function () { pendiente = null; anotar(); }, 300);
  }

  var plugin = {
    id: NOMBRE + ':plugin',
    description: 'Plazos de entrega y avisos de entrega tardía en la pestaña Assignments de nbgrader.',
    autoStart: true,
    requires: [],
    optional: [],
    activate: function () {
      new MutationObserver(function () {
        if (document.getElementById('released_assignments_list')) { programar(); }
      }).observe(document.body, { childList: true, subtree: true });
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
