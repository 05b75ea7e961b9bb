/*
 * tope_por_cuenta.js: a cap per local account on the connections configurable-http-proxy holds.
 *
 * Loaded before the proxy (jupyterhub_config.py: node --require <this file> <configurable-http-proxy> <its
 * arguments>), it changes nothing of the proxy's own code: it wraps http.createServer and https.createServer so
 * that every server the proxy makes first decides, for each new TCP connection, whether to keep it.
 *
 * Why (issue 19, a third attacker's F2): on one machine every student has a shell (the hub's terminals), and the
 * proxy's public port accepts TCP from any account. One student who opened about 20 000 idle connections from
 * several processes filled the proxy's open files, and nobody reached the hub, the formgrader or their server while
 * they were held. despliegue/hub/relevo.py already keeps other accounts off the formgrader's relay the same way.
 *
 * What it keeps:
 *  - the REST API port (--api-port): only connections owned by the proxy's own account (the hub, which started
 *    it) or root; any other account's connection is closed as soon as its owner is known (a request it sent
 *    meanwhile gets the API's 403: every endpoint needs the hub's token);
 *  - the public port: a connection from this machine (loopback) counts for the account that owns its socket (the
 *    kernel says it, below); root and the proxy's account have no cap, any other account at most
 *    CURSO_HUB_PROXY_TOPE_CUENTA at a time (64 by default: a student's own server talks to the hub on the hub's
 *    internal port, not here, and a browser keeps a few). A connection from another machine counts for its
 *    address, at most CURSO_HUB_PROXY_TOPE_IP at a time (1024 by default: a campus behind one NAT);
 *  - a connection that has not sent a request's headers in CURSO_HUB_PROXY_CABECERAS_S seconds (15 by default)
 *    is closed (node's headersTimeout, checked every 2 s), so the ones under the cap do not stay idle for ever;
 *  - requests (and WebSocket upgrades) on the public port: each account, or address from another machine, draws
 *    from a bucket of CURSO_HUB_PROXY_RAFAGA requests (200 by default; 16 times that for an address) that refills
 *    at CURSO_HUB_PROXY_POR_SEGUNDO a second (50; 16 times that for an address). One over it is answered at once
 *    by the proxy with 429 and a Spanish text, never forwarded. Why (a fifth attacker's F1): the cap above counts
 *    connections held, not made; a student who sent 800 requests in a second, each on a connection she closed at
 *    once, held almost none, yet the proxy forwarded every one to the hub: the TA's page took 5.4 s, and 200 a
 *    second for 7 s got the TA a 503. A JupyterLab page loads with well under 200 requests.
 * A connection over its cap is closed as soon as its owner is known (at most RELECTURA_MS); its requests wait for
 * that too (so a connection's first request from this machine waits one reading of ss, about 20 ms). WebSockets
 * count until they close.
 *
 * Behind an HTTPS proxy on this machine (nginx, Caddy: despliegue/README.md), every browser's connection arrives
 * from that proxy's account, so per account would mean one bucket for the whole class (a seventh attacker's F1:
 * one person with no account kept the class's logins at 429), and root in front would mean no limit at all. The
 * uids of that proxy's accounts come in CURSO_HUB_PROXY_DELANTE_UIDS, its addresses when it runs on another machine
 * in CURSO_HUB_PROXY_DELANTE_IPS (ajustes.py reads both from CURSO_HUB_PROXY_DELANTE);
 * their connections count together up to CURSO_HUB_PROXY_TOPE_DELANTE (8192), and each request on them counts for
 * the address that proxy says it forwards, the last entry of X-Forwarded-For (the one it added itself; the front
 * proxy must set or append it, never pass the client's alone), as a connection from another machine would: its
 * bucket, its logins, its bodies, its WebSockets (at most CURSO_HUB_PROXY_TOPE_IP). A forwarded client on loopback,
 * or a request with no usable address, counts as one more local account.
 *
 * The owner of a loopback socket comes from the kernel through `ss` (netlink, filtered in the kernel to the
 * connections to the proxy's ports), in a run made after the connection arrived, in a child process: at most one
 * run at a time and one every 20 ms, for every connection that arrived meanwhile.
 */
'use strict';

const { execFile } = require('child_process');
const fs = require('fs');
const http = require('http');
const https = require('https');
const net = require('net');

function entero(nombre, porDefecto) {
  const valor = parseInt(process.env[nombre] || '', 10);
  return Number.isFinite(valor) && valor >= 0 ? valor : porDefecto;
}

const TOPE_CUENTA = entero('CURSO_HUB_PROXY_TOPE_CUENTA', 64);
const TOPE_IP = entero('CURSO_HUB_PROXY_TOPE_IP', 1024);
const CABECERAS_MS = entero('CURSO_HUB_PROXY_CABECERAS_S', 15) * 1000;
const RAFAGA = entero('CURSO_HUB_PROXY_RAFAGA', 200);
const POR_SEGUNDO = entero('CURSO_HUB_PROXY_POR_SEGUNDO', 50);
const POR_IP = 16;                // an address from another machine (a campus NAT) gets this many times more
const RELECTURA_MS = 20;
const MAX_EN_ESPERA = 4096;      // connections waiting to learn their owner; more count as nobody's (capped)
const CONFIANZA = new Set([0, process.geteuid()]);
const DELANTE = new Set(String(process.env.CURSO_HUB_PROXY_DELANTE_UIDS || '').split(',').map((x) => x.trim())
  .filter((x) => /^\d+$/.test(x)).map((x) => parseInt(x, 10)));
const TOPE_DELANTE = entero('CURSO_HUB_PROXY_TOPE_DELANTE', 8192);
// WebSockets one address may hold through it: at most TOPE_WS_SERVIDOR to one server (an eighth attacker's F4: with
// the address cap of a direct connection, 1024, eight addresses filled the front proxy's 8192 and everyone got 502;
// only a server's owner holds WebSockets to it, so one person holds at most 256 per address), and TOPE_WS_DELANTE
// in all (a classroom behind one NAT address, or one IPv6 /64: each student's JupyterLab keeps its own)
const TOPE_WS_DELANTE = entero('CURSO_HUB_PROXY_TOPE_WS_IP', 1024);
const TOPE_WS_SERVIDOR = entero('CURSO_HUB_PROXY_TOPE_WS_SERVIDOR', 256);
// ... or its addresses, when it runs on another machine (a campus load balancer)
const DELANTE_IPS = new Set(String(process.env.CURSO_HUB_PROXY_DELANTE_IPS || '').split(',').map((x) => x.trim())
  .filter((x) => x).map((x) => normalizarIp(x)));

function argumento(nombre) {
  const i = process.argv.indexOf(nombre);
  return i >= 0 && i + 1 < process.argv.length ? String(process.argv[i + 1]) : null;
}
const PUERTO_API = argumento('--api-port') || '8001';   // configurable-http-proxy's default

// ------------------------------------------------------------------------ who owns a socket (the kernel, through ss)

// '::ffff:127.0.0.1' → '127.0.0.1'; an IPv6 address in its shortest lowercase form (as node writes remoteAddress)
function normalizarIp(ip) {
  if (!ip) { return ip; }
  const mapeada = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapeada) { return mapeada[1]; }
  if (ip.indexOf(':') < 0) { return ip; }
  const [izq, der] = ip.toLowerCase().split('::');
  const partes = (s) => (s ? s.split(':') : []);
  const relleno = 8 - partes(izq).length - partes(der).length;
  const todos = der === undefined ? partes(izq) : [...partes(izq), ...Array(relleno).fill('0'), ...partes(der)];
  const cortos = todos.map((g) => parseInt(g, 16).toString(16));
  // the longest run of zeros (two groups or more) becomes '::'
  let mejor = [-1, 0];
  for (let i = 0; i < 8;) {
    if (cortos[i] !== '0') { i += 1; continue; }
    let j = i;
    while (j < 8 && cortos[j] === '0') { j += 1; }
    if (j - i > mejor[1] && j - i > 1) { mejor = [i, j - i]; }
    i = j;
  }
  if (mejor[0] < 0) { return cortos.join(':'); }
  return `${cortos.slice(0, mejor[0]).join(':')}::${cortos.slice(mejor[0] + mejor[1]).join(':')}`;
}

// The owners of the established connections to the given local ports, from the kernel (iproute2's `ss`, which asks
// through netlink and filters by port in the kernel). Not by reading /proc/net/tcp: any account can make that table
// huge (600 000 sockets of its own: 1.4 s a reading, in the proxy's only thread), while the kernel's filter keeps
// the answer to the connections to the proxy. `ss` runs as a child process, so the proxy keeps serving meanwhile.
const SS = ['/usr/bin/ss', '/bin/ss', '/usr/sbin/ss', '/sbin/ss'].find((ruta) => {
  try { fs.accessSync(ruta, fs.constants.X_OK); return true; } catch (error) { return false; }
});

function sinCorchetes(extremo) {
  const dos = extremo.lastIndexOf(':');
  if (dos < 0) { return null; }
  const ip = extremo.slice(0, dos).replace(/^\[/, '').replace(/\]$/, '').replace(/%.*$/, '');
  return `${normalizarIp(ip)} ${parseInt(extremo.slice(dos + 1), 10)}`;
}

// `ss -Htne` lines → Map 'ip port > ip port' (the socket's local end, then its remote end) → uid. `ss` writes
// «uid:N» only for a socket whose owner is not root.
function leerSs(texto) {
  const tabla = new Map();
  for (const linea of texto.split('\n')) {
    let campos = linea.trim().split(/\s+/);
    if (campos.length && !/^\d+$/.test(campos[0])) { campos = campos.slice(1); }   // the State column (several states asked)
    if (campos.length < 4) { continue; }
    const local = sinCorchetes(campos[2]), remoto = sinCorchetes(campos[3]);
    const uid = /(?:^|\s)uid:(\d+)/.exec(linea);
    if (local !== null && remoto !== null) { tabla.set(`${local} > ${remoto}`, uid ? parseInt(uid[1], 10) : 0); }
  }
  return tabla;
}

let esperando = [];
let leyendo = false;
let leidaEn = 0;

function leerDuenos() {
  if (leyendo || esperando.length === 0) { return; }
  leyendo = true;
  const ahora = esperando;
  esperando = [];
  const puertos = [...new Set(ahora.map(([, , puerto]) => puerto))];
  const filtro = `( ${puertos.map((puerto) => `dport = :${puerto}`).join(' or ')} )`;
  const terminar = (tabla) => {
    leidaEn = Date.now();
    leyendo = false;
    for (const [clave, hecho] of ahora) { hecho(tabla && tabla.has(clave) ? tabla.get(clave) : null); }
    if (esperando.length) { setTimeout(leerDuenos, Math.max(0, RELECTURA_MS - (Date.now() - leidaEn))); }
  };
  if (!SS) { terminar(null); return; }
  // a client's socket connected, or already half-closed by it (FIN-WAIT: a request sent and its writing side shut);
  // not TIME-WAIT, where a socket has no owner any more and ss says root
  execFile(SS, ['-Htne', 'state', 'established', 'state', 'fin-wait-1', 'state', 'fin-wait-2', filtro], { timeout: 10000, maxBuffer: 256 * 1024 * 1024 },
    (error, salida) => terminar(error ? null : leerSs(salida)));
}

// calls hecho(uid or null) with the owner of the other end of a loopback connection: the socket whose local end is
// the connection's remote one and whose remote end is ours; null when the kernel did not say (then the connection
// is nobody's: never trusted, capped as one more account)
function dueno(socket, hecho) {
  // always from a reading made after the connection arrived: an earlier one may hold the same port for a socket
  // of another account that has closed since (a port the kernel gave again)
  const clave = `${normalizarIp(socket.remoteAddress)} ${socket.remotePort} > ${normalizarIp(socket.localAddress)} ${socket.localPort}`;
  if (esperando.length >= MAX_EN_ESPERA) { hecho(null); return; }      // a flood: not one more fd while the kernel is asked
  esperando.push([clave, hecho, socket.localPort]);
  if (!leyendo) { setTimeout(leerDuenos, Math.max(0, RELECTURA_MS - (Date.now() - leidaEn))); }
}

// ------------------------------------------------------------------------------------------- the caps

const abiertas = new Map();        // 'uid 1001' / 'ip 10.0.0.7' → connections held now

// this machine's own addresses (every interface, read again each minute): a connection from one of them, or a
// client the proxy in front forwards from one of them, is an account of this machine, not an outside address (an
// eighth attacker's F2: a student reached nginx on the machine's own address and got an address's 16 times)
let propias = new Set();
function leerPropias() {
  const os = require('os');
  const nuevas = new Set();
  for (const lista of Object.values(os.networkInterfaces())) {
    for (const interfaz of lista || []) { nuevas.add(normalizarIp(interfaz.address)); }
  }
  propias = nuevas;
}
leerPropias();
setInterval(leerPropias, 60000).unref();

function esLocal(ip) {
  return ip === '127.0.0.1' || ip === '::1' || /^127\./.test(ip || '') || propias.has(ip);
}

// what an outside address counts as: itself (IPv4), or its /64 for IPv6 (one household or host gets a whole /64:
// an eighth attacker's F1 used 23 addresses of one)
function claveDeDireccion(ip) {
  if (ip.indexOf(':') < 0) { return `ip ${ip}`; }
  const grupos = normalizarIp(ip).split('::');
  const izq = grupos[0] ? grupos[0].split(':') : [];
  const der = grupos.length > 1 && grupos[1] ? grupos[1].split(':') : [];
  const todos = grupos.length > 1 ? [...izq, ...Array(8 - izq.length - der.length).fill('0'), ...der] : izq;
  return `ip ${todos.slice(0, 4).join(':')}::/64`;
}

// what a connection counts for, once known: 'uid 1001', 'uid ?' (the kernel did not say), 'ip 10.0.0.7', or
// CONFIABLE (root, the proxy's account); undefined while its owner is asked
const CUENTA = Symbol('cuenta');
const ESPERAN = Symbol('esperan');   // requests of the connection waiting for its owner
const CONFIABLE = null;
const POR_DELANTE = Symbol('delante');   // the HTTPS proxy in front: each request counts for the client it forwards

function conocer(socket, cuenta) {
  socket[CUENTA] = cuenta;
  const esperan = socket[ESPERAN];
  socket[ESPERAN] = null;
  if (esperan) { for (const seguir of esperan) { seguir(); } }
}

function admitir(socket, esApi) {
  const ip = normalizarIp(socket.remoteAddress);
  if (DELANTE_IPS.has(ip) && !esApi) {         // the front proxy's address (of another machine, as configured)
    if (contar(socket, 'delante', TOPE_DELANTE)) { conocer(socket, POR_DELANTE); }
    return;
  }
  if (!esLocal(ip)) {
    if (esApi) { socket.destroy(); return; }
    const clave = claveDeDireccion(ip);
    if (contar(socket, clave, TOPE_IP)) { conocer(socket, clave); }
    return;
  }
  dueno(socket, (uid) => {
    if (socket.destroyed) { return; }
    const delante = !esApi && uid !== null && DELANTE.has(uid);
    if (!delante && uid !== null && CONFIANZA.has(uid)) { conocer(socket, CONFIABLE); return; }
    if (esApi) { socket.destroy(); return; }
    if (delante) {
      if (contar(socket, 'delante', TOPE_DELANTE)) { conocer(socket, POR_DELANTE); }
      return;
    }
    const cuenta = `uid ${uid === null ? '?' : uid}`;
    if (contar(socket, cuenta, TOPE_CUENTA)) { conocer(socket, cuenta); }
  });
}

// true when the connection is kept (then it counts until it closes); else it is closed (unless ``cerrar`` is false)
function contar(socket, clave, tope, cerrar = true) {
  const ya = abiertas.get(clave) || 0;
  if (ya >= tope) { if (cerrar) { socket.destroy(); } return false; }
  abiertas.set(clave, ya + 1);
  socket.once('close', () => {
    const quedan = (abiertas.get(clave) || 1) - 1;
    if (quedan > 0) { abiertas.set(clave, quedan); } else { abiertas.delete(clave); }
  });
  return true;
}

// the client a request on a connection of the proxy in front counts for: 'ip <address>' (its /64 for IPv6) from the
// last entry of X-Forwarded-For (never X-Real-IP: a front proxy that sets no X-Forwarded-For may pass the client's
// own X-Real-IP, an eighth attacker's F7); 'delante local' for a client on this machine (a local account, unknown
// here, with a local account's limits); 'delante sin dirección' when the front proxy sent no usable address (said
// once in the log)
let avisadoSinDireccion = false;
function clienteDeDelante(peticion) {
  const reenviadas = String(peticion.headers['x-forwarded-for'] || '').split(',');
  let ip = reenviadas[reenviadas.length - 1].trim();
  const conPuerto = /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(ip) || /^\[([0-9A-Fa-f:.]+)\](?::\d+)?$/.exec(ip);
  if (conPuerto) { ip = conPuerto[1]; }
  if (!net.isIP(ip)) {
    if (!avisadoSinDireccion) {
      avisadoSinDireccion = true;
      console.error('[curso] AVISO: el proxy de delante (CURSO_HUB_PROXY_DELANTE) manda peticiones sin X-Forwarded-For: ' +
        'cuentan todas como una sola cuenta. Configúralo para que lo ponga (despliegue/README.md).');
    }
    return 'delante sin dirección';
  }
  ip = normalizarIp(ip);
  return esLocal(ip) ? 'delante local' : claveDeDireccion(ip);
}

// ------------------------------------------------------------------------------- requests per second (token bucket)

const cubos = new Map();           // account or address → { fichas, en (ms) }

function capacidad(cuenta) { return cuenta.startsWith('ip ') ? RAFAGA * POR_IP : RAFAGA; }
function ritmo(cuenta) { return (cuenta.startsWith('ip ') ? POR_SEGUNDO * POR_IP : POR_SEGUNDO) / 1000; }

// whether ``cuenta`` may send one more request now (and takes it from its bucket)
function gastar(cuenta, ahora = Date.now()) {
  const tope = capacidad(cuenta);
  const cubo = cubos.get(cuenta) || { fichas: tope, en: ahora };
  cubo.fichas = Math.min(tope, cubo.fichas + (ahora - cubo.en) * ritmo(cuenta));
  cubo.en = ahora;
  cubos.set(cuenta, cubo);
  if (cubo.fichas < 1) { return false; }
  cubo.fichas -= 1;
  return true;
}

// buckets full again are forgotten (an address seen once does not stay in memory)
setInterval(() => {
  const ahora = Date.now();
  for (const [cuenta, cubo] of cubos) {
    if (cubo.fichas + (ahora - cubo.en) * ritmo(cuenta) >= capacidad(cuenta)) { cubos.delete(cuenta); }
  }
}, 60000).unref();

const DEMASIADAS = 'Demasiadas peticiones seguidas desde tu cuenta o tu dirección: espera unos segundos y vuelve a intentarlo.\n';

function rechazar(evento, args, texto = DEMASIADAS, codigo = 429) {
  if (evento === 'request') {
    const respuesta = args[1];
    respuesta.shouldKeepAlive = false;
    respuesta.writeHead(codigo, { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': '1',
      'Cache-Control': 'no-store', 'Content-Length': Buffer.byteLength(texto) });
    respuesta.end(texto);
  } else {                          // 'upgrade' (req, socket, head): no HTTP response object
    const cuerpo = Buffer.from(texto);
    args[1].end(`HTTP/1.1 429 Too Many Requests\r\nContent-Type: text/plain; charset=utf-8\r\nRetry-After: 1\r\n` +
      `Connection: close\r\nContent-Length: ${cuerpo.length}\r\n\r\n${texto}`);
  }
}

// ------------------------------------------------------------------------------- logins (a sixth attacker's F1)

// A failed PAM login takes 2-3 s (pam_unix's delay) in one of the hub's few PAM threads: 40 of them at once from
// one student made the TA's own login wait 46 s. A login (POST .../hub/login, or a token asked with a password)
// waits for no other of its account's: at most EN_CURSO_LOGIN at a time per account (16 times that for an
// address), and each failed one (any answer but a redirect) spends one of FALLOS_LOGIN, given back one every
// RECARGA_LOGIN_S seconds. One past either gets 429 from here.
const EN_CURSO_LOGIN = 1;
const FALLOS_LOGIN = entero('CURSO_HUB_PROXY_FALLOS_LOGIN', 5);
const RECARGA_LOGIN_S = 10;
// a POST to the hub with a segment 'login' or 'tokens' in any spelling (see es_login in conexiones_por_cuenta.py,
// its twin: fresh attackers' F1s reached a password check uncounted through '/hub//login', '/hub\login' and
// '/hub/api/users/%2F/tokens'); the hub checks again where the password is checked
const ES_LOGIN = /^(login|tokens)$/;
function esLogin(url) {
  const normalizada = rutaNormalizada(url).split('/');
  const servidor = normalizada.find((t) => t === 'hub' || t === 'user' || t === 'services');
  return servidor === 'hub' && rutaDescodificada(url).toLowerCase().split('/').some((t) => ES_LOGIN.test(t));
}
const loginsEnCurso = new Map();
const fallos = new Map();          // account → { fichas, en (ms) }

function veces(cuenta) { return cuenta.startsWith('ip ') ? POR_IP : 1; }
// logins one address may have in flight: 4 (an eighth attacker's F1: with 16, a few addresses kept every PAM thread
// of the hub busy with failures); its failures still refill 16 times an account's
const EN_CURSO_LOGIN_IP = 4;

function fichasDeFallos(cuenta, ahora) {
  const tope = FALLOS_LOGIN * veces(cuenta);
  const cubo = fallos.get(cuenta) || { fichas: tope, en: ahora };
  cubo.fichas = Math.min(tope, cubo.fichas + (ahora - cubo.en) * veces(cuenta) / (RECARGA_LOGIN_S * 1000));
  cubo.en = ahora;
  fallos.set(cuenta, cubo);
  return cubo;
}

// whether a login of ``cuenta`` may go on now; if so, counts it until its answer is sent
function empezarLogin(cuenta, respuesta) {
  const ahora = Date.now();
  const enCurso = loginsEnCurso.get(cuenta) || 0;
  const tope = cuenta.startsWith('ip ') ? EN_CURSO_LOGIN_IP : EN_CURSO_LOGIN;
  if (enCurso >= tope || fichasDeFallos(cuenta, ahora).fichas < 1) { return false; }
  loginsEnCurso.set(cuenta, enCurso + 1);
  let hecho = false;
  const terminar = () => {
    if (hecho) { return; }
    hecho = true;
    const quedan = (loginsEnCurso.get(cuenta) || 1) - 1;
    if (quedan > 0) { loginsEnCurso.set(cuenta, quedan); } else { loginsEnCurso.delete(cuenta); }
    if (respuesta.statusCode !== 302) { fichasDeFallos(cuenta, Date.now()).fichas -= 1; }
  };
  respuesta.once('finish', terminar);
  respuesta.once('close', terminar);
  return true;
}

setInterval(() => {
  const ahora = Date.now();
  for (const [cuenta, cubo] of fallos) {
    if (cubo.fichas + (ahora - cubo.en) * veces(cuenta) / (RECARGA_LOGIN_S * 1000) >= FALLOS_LOGIN * veces(cuenta)) {
      fallos.delete(cuenta);
    }
  }
}, 60000).unref();

// ------------------------------------------------------------------------------- request bodies (a sixth attacker's F4)

// A body is kept whole in memory by the hub (tornado reads it before the handler runs) and by a user's server: one
// student's 12 requests of 95 MiB, nearly all sent and then held, took the hub from 111 MB to 1.28 GB. Now a
// request may bring at most CURSO_HUB_PROXY_MAX_CUERPO_MIB (64) and an account at most
// CURSO_HUB_PROXY_CUERPOS_CUENTA_MIB (128; 4 times that for an address) in requests not yet answered; past either,
// 413 from here. JupyterLab uploads a large file in pieces of 1 MiB.
const MAX_CUERPO = entero('CURSO_HUB_PROXY_MAX_CUERPO_MIB', 64) * 1024 * 1024;
const CUERPOS_CUENTA = entero('CURSO_HUB_PROXY_CUERPOS_CUENTA_MIB', 128) * 1024 * 1024;
const cuerposEnCurso = new Map();   // account → bytes of bodies of requests not yet answered
const DEMASIADO_GRANDE = 'La petición es demasiado grande (o esta cuenta tiene demasiadas a medias): sube el archivo ' +
  'en partes más pequeñas o espera a que terminen las anteriores.\n';

// reserves the request's body for its account until its answer is sent; null when it may not go on, else what to
// call once the request is handed on (a body of unknown length, chunked, is then counted as it arrives and cut
// when it passes the limit: listening earlier would start the stream before the proxy pipes it)
function reservarCuerpo(cuenta, peticion, respuesta) {
  const declarado = parseInt(peticion.headers['content-length'] || '0', 10) || 0;
  const tope = CUERPOS_CUENTA * (cuenta.startsWith('ip ') ? 4 : 1);   // an address: 4 times (not 16: memory)
  const ya = cuerposEnCurso.get(cuenta) || 0;
  if (declarado > MAX_CUERPO || ya + declarado > tope) { return null; }
  let reservado = declarado;
  cuerposEnCurso.set(cuenta, ya + reservado);
  let hecho = false;
  const liberar = () => {
    if (hecho) { return; }
    hecho = true;
    const quedan = (cuerposEnCurso.get(cuenta) || reservado) - reservado;
    if (quedan > 0) { cuerposEnCurso.set(cuenta, quedan); } else { cuerposEnCurso.delete(cuenta); }
  };
  respuesta.once('finish', liberar);
  respuesta.once('close', liberar);
  return () => {
    if (declarado || !peticion.headers['transfer-encoding']) { return; }
    let llegados = 0;
    peticion.on('data', (trozo) => {
      llegados += trozo.length;
      if (hecho) { return; }
      reservado += trozo.length;
      cuerposEnCurso.set(cuenta, (cuerposEnCurso.get(cuenta) || 0) + trozo.length);
      if (llegados > MAX_CUERPO || (cuerposEnCurso.get(cuenta) || 0) > tope) { peticion.socket.destroy(); }
    });
  };
}

const DEMASIADOS_LOGIN = 'Demasiados intentos de entrar seguidos desde tu cuenta o tu dirección: espera unos segundos y vuelve a intentarlo.\n';

// a request or upgrade on the public port goes on once its connection's owner is known, if its bucket allows
// (over TLS the request's socket wraps the TCP one the 'connection' event saw: node keeps that one as _parent).
// Whose it is travels with it to the hub and the user's server (X-Curso-Origen, never the client's own).
function despachar(conexion, seguir, evento, args) {
  const socket = conexion[CUENTA] === undefined && conexion._parent ? conexion._parent : conexion;
  const decidir = () => {
    const peticion = args[0];
    let cuenta = socket[CUENTA];
    const porDelante = cuenta === POR_DELANTE;
    if (porDelante) { cuenta = clienteDeDelante(peticion); }
    peticion.headers['x-curso-origen'] = cuenta === CONFIABLE ? 'confiable' : cuenta;
    if (cuenta !== CONFIABLE && !gastar(cuenta)) { rechazar(evento, args); return; }
    // a WebSocket through the proxy in front holds its connection for that client alone: it counts for the client,
    // and an address's for the server it goes to too; a refused one counts for neither (whenever it closes)
    if (porDelante && evento === 'upgrade') {
      const topes = [[`ws ${cuenta}`, cuenta.startsWith('ip ') ? TOPE_WS_DELANTE : TOPE_CUENTA]];
      if (cuenta.startsWith('ip ')) {
        topes.push([`ws ${cuenta} ${servidorDeLaRuta(peticion.url)}`, TOPE_WS_SERVIDOR]);
      }
      if (topes.some(([clave, tope]) => (abiertas.get(clave) || 0) >= tope)) {
        rechazar(evento, args);
        return;
      }
      for (const [clave, tope] of topes) { contar(args[1], clave, tope, false); }
    }
    if (cuenta !== CONFIABLE && evento === 'request' && peticion.method === 'POST' && esLogin(peticion.url)
        && !empezarLogin(cuenta, args[1])) {
      rechazar(evento, args, DEMASIADOS_LOGIN);
      return;
    }
    const trozos = cuenta !== CONFIABLE && evento === 'request' ? reservarCuerpo(cuenta, peticion, args[1]) : () => {};
    if (trozos === null) {
      rechazar(evento, args, DEMASIADO_GRANDE, 413);
      return;
    }
    seguir();
    trozos();
  };
  if (socket[CUENTA] !== undefined) { decidir(); return; }
  if (!socket[ESPERAN]) { socket[ESPERAN] = []; }
  socket[ESPERAN].push(decidir);
}

// the path of a URL as a router that forgives may read it: no scheme, host, query or fragment; percent-decoded (kept
// raw if it does not decode); lower case; empty and '.' segments dropped and '..' applied. Every spelling that could
// reach a handler is matched the same way (counting one the hub answers 404 costs nothing); the twin of
// ruta_normalizada in despliegue/hub/jupyter/comun/conexiones_por_cuenta.py
function rutaDescodificada(url) {
  const ruta = String(url || '').replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '').split(/[?#]/)[0];
  let descodificada = ruta;
  try { descodificada = decodeURIComponent(ruta); } catch (error) { /* malformed: kept raw */ }
  return descodificada.replace(/\\/g, '/');     // a backslash is a slash to the WHATWG URL parser (and the proxy)
}

function rutaNormalizada(url) {
  const trozos = [];
  for (const trozo of rutaDescodificada(url).toLowerCase().split('/')) {
    if (trozo === '..') { trozos.pop(); } else if (trozo !== '' && trozo !== '.') { trozos.push(trozo); }
  }
  return `/${trozos.join('/')}`;
}

// the server a request's path goes to, as configurable-http-proxy's routing table sees it (empty segments dropped):
// 'user/<name>' or 'services/<name>' (after the hub's base_url, if any); 'hub' for the rest. Percent-decoded first,
// as the proxy decodes it to choose the route ('/user/mall%6Fry/…' goes to mallory's server and counts for it); a
// path that does not decode is kept as it came (the proxy cannot route it either)
function servidorDeLaRuta(url) {
  const trozos = rutaDescodificada(url).split('/').filter((t) => t !== '');
  for (let i = 0; i + 1 < trozos.length; i += 1) {
    if (trozos[i] === 'user' || trozos[i] === 'services') { return `${trozos[i]}/${trozos[i + 1]}`; }
  }
  return 'hub';
}

// every server the proxy makes: each new connection is looked at as it arrives (the proxy gets it at once; one over
// its cap, or another account's on the API port, is closed as soon as its owner is known, within RELECTURA_MS: in
// that time no request can use the API without its token, and none can hold a connection)
function vigilar(servidor) {
  const emitir = servidor.emit;
  servidor.emit = function (evento, ...args) {
    const direccion = this.address();
    const esApi = direccion !== null && typeof direccion === 'object' && String(direccion.port) === PUERTO_API;
    if (evento === 'connection' && args[0]) {
      admitir(args[0], esApi);
    } else if ((evento === 'request' || evento === 'upgrade') && !esApi && args[0] && args[0].socket) {
      despachar(args[0].socket, () => emitir.call(this, evento, ...args), evento, args);
      return true;
    }
    return emitir.call(this, evento, ...args);
  };
  return servidor;
}

// ----------------------------------------------------------------- the servers the proxy forwards to
// A student's server listens on a port of 127.0.0.1 that every account sees (`ss -ltn`). When it dies, the hub
// removes its route only when it notices (about 7 s), and any account may bind the freed port meanwhile: a fresh
// attacker's F3 bound a classmate's port 30 ms after her server died and got her requests through the proxy, her
// token and her server's cookie with them (then her files, her submissions). So every connection the proxy opens to
// a server of this machine is handed to the request only once the kernel says who listens at the other end (its
// accepted socket's owner, through `ss`, as for the clients above): root or the proxy's own account (the hub, the
// services' relays) for anything, and for '/user/<name>/…' also the account <name> (a server of
// LocalProcessSpawner runs as the account of its user's name). Anyone else, or nobody known: the connection is closed and the proxy
// answers 503 as for a server that is down, and the proxy's log says whose port it was. Servers on other machines
// (Kubernetes pods) are not looked at. Connections are kept alive and reused (configurable-http-proxy's agent): the
// check costs one reading of `ss` per new connection, not per request.
const PROPIO_UID = typeof process.getuid === 'function' ? process.getuid() : 0;
const uidsDeCuentas = new Map();     // account → [uid or null, when read]

function uidDeCuenta(cuenta, hecho) {
  const guardado = uidsDeCuentas.get(cuenta);
  if (guardado && Date.now() - guardado[1] < 60000) { hecho(guardado[0]); return; }
  if (!/^[A-Za-z0-9._@-][A-Za-z0-9._@+-]{0,127}$/.test(cuenta)) { hecho(null); return; }
  execFile('id', ['-u', '--', cuenta], { timeout: 10000 }, (error, salida) => {
    const uid = !error && /^\d+\s*$/.test(String(salida)) ? parseInt(salida, 10) : null;
    uidsDeCuentas.set(cuenta, [uid, Date.now()]);
    hecho(uid);
  });
}

// calls hecho(null) when the account that listens at the other end of ``socket`` may serve ``ruta``, else
// hecho(reason in Spanish)
function comprobarDestino(socket, ruta, hecho) {
  const servidor = servidorDeLaRuta(ruta);
  dueno(socket, (uid) => {
    if (uid === null) { hecho('el núcleo no dijo de quién es el puerto'); return; }
    // root or the proxy's account (the hub, its relays) may serve anything: '/user/<name>/…' goes to the hub
    // itself while <name>'s server is not running (the page that starts it)
    if (uid === 0 || uid === PROPIO_UID) { hecho(null); return; }
    if (!servidor.startsWith('user/')) { hecho(`el puerto es de la cuenta ${uid}, no del hub`); return; }
    const cuenta = servidor.slice('user/'.length);
    uidDeCuenta(cuenta, (esperado) => {
      hecho(esperado !== null && uid === esperado ? null : `el puerto es de la cuenta ${uid}, no de ${cuenta}`);
    });
  });
}

// the request's path reaches createConnection through createSocket (node passes createConnection only the
// connection's options, without the request)
const RUTA = Symbol('ruta');
const crearSocketOriginal = http.Agent.prototype.createSocket;
http.Agent.prototype.createSocket = function (peticion, opciones, alCrear) {
  return crearSocketOriginal.call(this, peticion, { ...opciones, [RUTA]: peticion && peticion.path }, alCrear);
};

const conectarOriginal = http.Agent.prototype.createConnection;
http.Agent.prototype.createConnection = function (opciones, alCrear) {
  const host = normalizarIp(String(opciones.host || opciones.hostname || 'localhost').replace(/^localhost$/, '127.0.0.1'));
  if (!esLocal(host) || typeof alCrear !== 'function') { return conectarOriginal.call(this, opciones, alCrear); }
  const socket = conectarOriginal.call(this, opciones);
  let hecho = false;
  const acabar = (error) => {
    if (hecho) { return; }
    hecho = true;
    socket.removeListener('error', acabar);
    if (error) { socket.destroy(); alCrear(error); } else { alCrear(null, socket); }
  };
  socket.once('error', acabar);
  socket.once('connect', () => {
    const ruta = opciones[RUTA] || '/';
    comprobarDestino(socket, ruta, (motivo) => {
      if (motivo === null) { acabar(null); return; }
      console.error(`[curso] no se reenvía ${servidorDeLaRuta(ruta)} a ${host}:${opciones.port}: ${motivo}`);
      acabar(new Error(`destino no fiable: ${motivo}`));
    });
  });
  return undefined;
};

function conTiempos(opciones) {
  return Object.assign({ headersTimeout: CABECERAS_MS, connectionsCheckingInterval: 2000 }, opciones || {},
    { headersTimeout: CABECERAS_MS, connectionsCheckingInterval: 2000 });
}

for (const modulo of [http, https]) {
  const crear = modulo.createServer;
  modulo.createServer = function (opciones, alPedir) {
    if (typeof opciones === 'function' || opciones === undefined) { return vigilar(crear.call(modulo, conTiempos({}), opciones)); }
    return vigilar(crear.call(modulo, conTiempos(opciones), alPedir));
  };
}

module.exports = { normalizarIp, claveDeDireccion, leerSs, gastar, servidorDeLaRuta, rutaNormalizada, esLogin,
  TOPE_CUENTA, TOPE_IP, RAFAGA, POR_SEGUNDO, POR_IP };
