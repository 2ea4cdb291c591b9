// `npm start` (`next start`) and `npm run dev` (`next dev`), with two decisions first, in this order:
// 1. Node.js is one package.json's engines allows, or it stops with a sentence saying which (Next.js itself would
//    print "Ready" on Node 20 and then fail with a TypeError).
// 2. The address to listen on (start-rules.mjs's listenHost): loopback while the development login is on at a
//    loopback APP_URL, unless HOSTNAME or `-H` says otherwise. The settings are read as Next.js reads them
//    (the environment first, then .env files), without changing the environment Next.js then loads.
// Next.js's CLI then runs in this process (no second Node.js start). For `start`, two things first that make
// a start quicker: Node's compile cache from here on (lib/app/compile-cache.ts: next.config.ts turns it on
// only after Next.js's own modules have loaded), and on the embedded database (no DATABASE_URL) its thread,
// which opens PGlite while Next.js loads (embedded-early.mjs).
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { EARLY_EMBEDDED, EARLY_WORKER_FILE, startEmbeddedEarly } from "./embedded-early.mjs";
import { listenHost, listenPort, nodeVersionProblem, withImport } from "./start-rules.mjs";

const problem = nodeVersionProblem(process.versions.node);
if (problem) {
  console.error(problem);
  process.exit(1);
}

const [command = "start", ...args] = process.argv.slice(2);
const dev = command === "dev";

/** The settings as Next.js will see them: the environment, then the .env files it loads, in its order. */
async function settings() {
  const { parseEnv } = await import("node:util");
  const mode = process.env.NODE_ENV === "test" ? "test" : dev ? "development" : "production";
  const files = [`.env.${mode}.local`, mode !== "test" && ".env.local", `.env.${mode}`, ".env"].filter(Boolean);
  const vars = {};
  for (const file of files) {
    let text;
    try {
      text = readFileSync(path.join(process.cwd(), file), "utf8");
    } catch {
      continue;
    }
    for (const [key, value] of Object.entries(parseEnv(text))) vars[key] ??= value;
  }
  return { ...vars, ...process.env };
}

// What the app writes is its user's alone: the embedded database's files (PGlite creates them 0666 less the
// umask), uploads, the build's caches. lib/db/embedded.ts also makes the database folder private at each open.
process.umask(0o077);

const vars = await settings();
if (command === "start") {
  const { enableCompileCache } = await import("node:module");
  enableCompileCache(path.resolve(".next/cache/node-compile-cache"));
  // As lib/env.ts reads them: no DATABASE_URL means the embedded database, in DATA_DIR (default ./data).
  if (vars.DATABASE_URL === undefined && vars.DATA_DIR !== "") {
    const dataDir = path.resolve(vars.DATA_DIR ?? "./data");
    if (startEmbeddedEarly(path.resolve(EARLY_WORKER_FILE), dataDir, listenPort(args, vars)))
      // Another process holds the data folder: stop now with its sentence, before Next.js serves anything.
      globalThis[EARLY_EMBEDDED].ready.catch((error) => {
        if (!error.locked) return; // the app starts the thread again, and says why if that fails too
        console.error(error.message);
        process.exit(1);
      });
  }
}

const hostGiven = args.some((arg) => arg === "-H" || arg.startsWith("--hostname") || /^-H./.test(arg));
const host = hostGiven ? null : listenHost(vars);
if (host && !process.env.HOSTNAME)
  console.log(
    `[verbatim] Listening on ${host} only: the development login is on, so anyone who reached this server could sign in as anyone. Set HOSTNAME (or -H), or a non-loopback APP_URL without the development login, to listen on the network.`,
  );
// Next.js's "Network" line for a loopback address, dropped here and in `next dev`'s server process (which takes
// NODE_OPTIONS from this one's).
const quiet = pathToFileURL(path.resolve(import.meta.dirname, "quiet-network-line.mjs")).href;
await import(quiet);
if (dev) process.env.NODE_OPTIONS = withImport(process.env.NODE_OPTIONS, quiet);
process.argv = [process.argv[0], "next", dev ? "dev" : "start", ...(host ? ["-H", host] : []), ...args];
await import("next/dist/bin/next");
