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
 *    it) or root; any other account's connection is closed at once, before a byte is read;
 *  - the public port: a connection from this machine (loopback) counts for the account that owns its socket (from
 *    /proc/net/tcp and /proc/net/tcp6); root and the proxy's account have no cap, any other account at most
 *    CURSO_HUB_PROXY_TOPE_CUENTA at a time (64 by default: a student's own server talks to the hub on the hub's
 *    internal port, not here, and a browser keeps a few). A connection from another machine counts for its
 *    address, at most CURSO_HUB_PROXY_TOPE_IP at a time (1024 by default: a campus behind one NAT);
 *  - a connection that has not sent a request's headers in CURSO_HUB_PROXY_CABECERAS_S seconds (15 by default)
 *    is closed (node's headersTimeout, checked every 2 s), so the ones under the cap do not stay idle for ever.
 * A connection over its cap is closed as soon as its owner is known (at most RELECTURA_MS); WebSockets count
 * until they close.
 *
 * The owner of a loopback socket is read from /proc/net/tcp{,6}, the table of every TCP socket of the machine with
 * its uid, in a reading made after the connection arrived. It is read at most every 20 ms (connections arriving
 * meanwhile wait for the next reading), so a flood of connections costs one reading per 20 ms, not one per
 * connection.
 */
'use strict';

const fs = require('fs');
const http = require('http');
const https = require('https');

function entero(nombre, porDefecto) {
  const valor = parseInt(process.env[nombre] || '', 10);
  return Number.isFinite(valor) && valor >= 0 ? valor : porDefecto;
}

const TOPE_CUENTA = entero('CURSO_HUB_PROXY_TOPE_CUENTA', 64);
const TOPE_IP = entero('CURSO_HUB_PROXY_TOPE_IP', 1024);
const CABECERAS_MS = entero('CURSO_HUB_PROXY_CABECERAS_S', 15) * 1000;
const RELECTURA_MS = 20;
const CONFIANZA = new Set([0, process.geteuid()]);

function argumento(nombre) {
  const i = process.argv.indexOf(nombre);
  return i >= 0 && i + 1 < process.argv.length ? String(process.argv[i + 1]) : null;
}
const PUERTO_API = argumento('--api-port') || '8001';   // configurable-http-proxy's default

// ------------------------------------------------------------ who owns a socket (/proc/net/tcp, /proc/net/tcp6)

// '0100007F' → '127.0.0.1'; an IPv6 address (four 32-bit words, each in the machine's byte order) → its text,
// an IPv4-mapped one as IPv4. Only little-endian machines (x86, ARM as Linux runs them) are handled.
function ipDe(hex) {
  if (hex.length === 8) {
    const b = Buffer.from(hex, 'hex');
    return `${b[3]}.${b[2]}.${b[1]}.${b[0]}`;
  }
  if (hex.length !== 32) { return null; }
  const palabras = [];
  for (let i = 0; i < 32; i += 8) { palabras.push(Buffer.from(hex.slice(i, i + 8), 'hex').reverse()); }
  const b = Buffer.concat(palabras);
  if (b.subarray(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff) {
    return `${b[12]}.${b[13]}.${b[14]}.${b[15]}`;
  }
  const grupos = [];
  for (let i = 0; i < 16; i += 2) { grupos.push(b.readUInt16BE(i).toString(16)); }
  return normalizarIp(grupos.join(':'));
}

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

// the table: 'ip port > ip port' (a socket's local end, then its remote end) → uid, for every established TCP socket
// of the machine (state 01: a closed socket waiting out TIME_WAIT shows uid 0 and may share a local port)
function leerTabla(archivos = ['/proc/net/tcp', '/proc/net/tcp6']) {
  const tabla = new Map();
  const extremo = (campo) => {
    const dos = campo.lastIndexOf(':');
    const ip = dos < 0 ? null : ipDe(campo.slice(0, dos));
    return ip === null ? null : `${ip} ${parseInt(campo.slice(dos + 1), 16)}`;
  };
  for (const archivo of archivos) {
    let texto;
    try { texto = fs.readFileSync(archivo, 'ascii'); } catch (error) { continue; }
    const lineas = texto.split('\n');
    for (let k = 1; k < lineas.length; k += 1) {
      const campos = lineas[k].trim().split(/\s+/);
      if (campos.length < 8 || campos[3] !== '01') { continue; }
      const local = extremo(campos[1]), remoto = extremo(campos[2]);
      const uid = parseInt(campos[7], 10);
      if (local !== null && remoto !== null && Number.isFinite(uid)) { tabla.set(`${local} > ${remoto}`, uid); }
    }
  }
  return tabla;
}

let leidaEn = 0;
let esperando = [];
let lecturaProgramada = false;

// calls hecho(uid or null) with the owner of the other end of a loopback connection: the socket whose local end is
// the connection's remote one and whose remote end is ours
function dueno(socket, hecho) {
  // always from a reading made after the connection arrived: an earlier one may hold the same port for a socket
  // of another account that has closed since (a port the kernel gave again)
  const clave = `${normalizarIp(socket.remoteAddress)} ${socket.remotePort} > ${normalizarIp(socket.localAddress)} ${socket.localPort}`;
  esperando.push([clave, hecho]);
  if (lecturaProgramada) { return; }
  lecturaProgramada = true;
  setTimeout(() => {
    lecturaProgramada = false;
    const tabla = leerTabla();
    leidaEn = Date.now();
    const ahora = esperando;
    esperando = [];
    for (const [c, h] of ahora) { h(tabla.has(c) ? tabla.get(c) : null); }
  }, Math.max(0, RELECTURA_MS - (Date.now() - leidaEn)));
}

// ------------------------------------------------------------------------------------------- the caps

const abiertas = new Map();        // 'uid 1001' / 'ip 10.0.0.7' → connections held now

function esLocal(ip) {
  return ip === '127.0.0.1' || ip === '::1' || /^127\./.test(ip || '');
}

function admitir(socket, esApi) {
  const ip = normalizarIp(socket.remoteAddress);
  if (!esLocal(ip)) {
    if (esApi) { socket.destroy(); return; }
    contar(socket, `ip ${ip}`, TOPE_IP);
    return;
  }
  dueno(socket, (uid) => {
    if (socket.destroyed || (uid !== null && CONFIANZA.has(uid))) { return; }
    if (esApi) { socket.destroy(); return; }
    contar(socket, `uid ${uid === null ? '?' : uid}`, TOPE_CUENTA);
  });
}

function contar(socket, clave, tope) {
  const ya = abiertas.get(clave) || 0;
  if (ya >= tope) { socket.destroy(); return; }
  abiertas.set(clave, ya + 1);
  socket.once('close', () => {
    const quedan = (abiertas.get(clave) || 1) - 1;
    if (quedan > 0) { abiertas.set(clave, quedan); } else { abiertas.delete(clave); }
  });
}

// every server the proxy makes: each new connection is looked at as it arrives (the proxy gets it at once; one over
// its cap, or another account's on the API port, is closed as soon as its owner is known, within RELECTURA_MS: in
// that time no request can use the API without its token, and none can hold a connection)
function vigilar(servidor) {
  const emitir = servidor.emit;
  servidor.emit = function (evento, ...args) {
    if (evento === 'connection' && args[0]) {
      const direccion = this.address();
      const esApi = direccion !== null && typeof direccion === 'object' && String(direccion.port) === PUERTO_API;
      admitir(args[0], esApi);
    }
    return emitir.call(this, evento, ...args);
  };
  return servidor;
}

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

module.exports = { ipDe, normalizarIp, leerTabla, TOPE_CUENTA, TOPE_IP };
