// What `npm start` and `npm run dev` decide before Next.js loads (scripts/start.mjs): whether this Node.js is one
// the project supports, and which address to listen on. Plain JavaScript with no dependency, so that it runs, and
// says so, on any Node.js, and costs the start nothing.

/** package.json's engines.node, in words. */
export const SUPPORTED_NODE = "Node.js 22 (22.12 or newer) or 24 and newer";

/** Whether `version` ("22.12.0", "v24.1.0") is one package.json's engines (^22.12 || >=24) allows. */
export function supportedNode(version) {
  const [major, minor] = version.replace(/^v/, "").split(".").map(Number);
  return (major === 22 && minor >= 12) || major >= 24;
}

/** The sentence to stop with on an unsupported Node.js, or null. */
export function nodeVersionProblem(version) {
  if (supportedNode(version)) return null;
  return `Verbatim needs ${SUPPORTED_NODE} (package.json "engines": "^22.12 || >=24"); this is Node.js ${version.replace(/^v/, "")}. Install a supported version (for example \`nvm install 22\`) and run it again.`;
}

const FLAG = { true: true, 1: true, yes: true, on: true, false: false, 0: false, no: false, off: false };

/**
 * lib/env.ts's isLoopbackUrl for a URL's host name (as WHATWG URL writes it: IPv4 dotted, IPv6 compressed in
 * brackets): localhost, 127.0.0.0/8, ::1, and 127.0.0.0/8 mapped into IPv6.
 */
export function isLoopbackHost(hostname) {
  const host = hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  if (host === "localhost" || host === "::1") return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return true;
  return /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host);
}

/**
 * The address `next start` / `next dev` should listen on, from the settings (lib/env.ts's rules; empty values
 * are unset): HOSTNAME when it is set; else, while the development login is on (AUTH_DEV_LOGIN, by default on
 * only for the embedded database at a loopback APP_URL) and APP_URL is loopback, that loopback address
 * (127.0.0.1 for localhost), since anyone who reaches the server could sign in as anyone; else null (Next.js's
 * default: every interface).
 */
export function listenHost(vars) {
  const set = (name) => (vars[name] === undefined || vars[name] === "" ? undefined : vars[name]);
  const hostname = set("HOSTNAME")?.trim();
  if (hostname) return hostname;
  const appUrl = set("APP_URL") ?? `http://localhost:${set("PORT") ?? 3000}`;
  let host;
  try {
    host = new URL(appUrl).hostname;
  } catch {
    return null;
  }
  const loopback = isLoopbackHost(host);
  const flag = FLAG[String(set("AUTH_DEV_LOGIN")).toLowerCase()];
  const devLogin = flag ?? (set("DATABASE_URL") === undefined && loopback);
  if (!devLogin || !loopback) return null;
  return host === "localhost" ? "127.0.0.1" : host.replace(/^\[(.*)\]$/, "$1");
}

/**
 * The port `next start` / `next dev` will listen on: `-p`/`--port` among `args` (as Next.js's CLI reads them),
 * else PORT, else 3000. Written into the data folder's lock so `npm run doctor` can ask the running app.
 */
export function listenPort(args, vars) {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const given = arg === "-p" || arg === "--port" ? args[i + 1] : /^(?:-p|--port=)(\d+)$/.exec(arg)?.[1];
    if (given !== undefined && /^\d+$/.test(given)) return Number(given);
  }
  const port = Number(vars.PORT);
  return Number.isInteger(port) && port > 0 && port < 65536 ? port : 3000;
}

/**
 * Whether a line Next.js prints at start is its "- Network: URL" line for a loopback URL: listening on
 * 127.0.0.1 (or ::1, localhost), Next.js names that address as the one for the network, which it is not.
 */
export function isLoopbackNetworkLine(line) {
  const url = /^\s*- Network:\s+(\S+)\s*$/.exec(String(line))?.[1];
  if (!url) return false;
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}

/**
 * NODE_OPTIONS with `--import=url` added once (`next dev` forks its server with the NODE_OPTIONS it finds): what
 * was there is kept, and a second start does not add it again.
 */
export function withImport(nodeOptions, url) {
  const option = `--import=${url}`;
  const given = (nodeOptions ?? "").trim();
  if (given.split(/\s+/).includes(option)) return given;
  return given === "" ? option : `${given} ${option}`;
}
