import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

// No API key or token a test run created, no secret the apps were configured with, and nothing shaped like one
// of our keys or tokens, may appear in an app server's log. The suites that run the built app (e2e, test/server)
// note every key and token they are given (recordSecrets) and write each app's output to SERVER_LOGS_DIR; at
// the end of the run, checkServerLogs searches their logs.

/** Where the suites note the keys and tokens they were given. */
export const SECRETS_FILE = path.resolve("test-results", "secrets.txt");

/** Where the suites that run the built app write each app server's output. */
export const SERVER_LOGS_DIR = path.resolve("test-results", "server-logs");

/** Key- or token-shaped strings the logger's mask would have turned into `vbt_[redacted]`. */
const UNMASKED = /\b(?:vbt|vat|vrt|whsec)_[A-Za-z0-9]{16,}/;

/** Notes API keys and tokens this run created: none may appear in any app server's log. */
export function recordSecrets(...values: unknown[]): void {
  const secrets = values.filter((value): value is string => typeof value === "string" && value.length > 0);
  if (secrets.length === 0) return;
  mkdirSync(path.dirname(SECRETS_FILE), { recursive: true });
  appendFileSync(SECRETS_FILE, secrets.map((secret) => `${secret}\n`).join(""));
}

/**
 * Throws when a recorded key or token, one of `configured`, or an unmasked key-shaped string appears in one of
 * the app server logs whose file name `logs` accepts; also when there are no such logs, or none has a request
 * line (then the check would prove nothing).
 */
export function checkServerLogs(options: { logs: (name: string) => boolean; configured?: string[] }): void {
  const names = existsSync(SERVER_LOGS_DIR) ? readdirSync(SERVER_LOGS_DIR).filter(options.logs) : [];
  if (names.length === 0)
    throw new Error(`No app server logs in ${SERVER_LOGS_DIR}: the leak check has nothing to read.`);
  const logs = names.map((name) => ({ name, text: readFileSync(path.join(SERVER_LOGS_DIR, name), "utf8") }));
  // Proof that the logs are the apps' request logs, not empty files: otherwise the check below proves nothing.
  if (!logs.some((log) => log.text.includes('"msg":"request"')))
    throw new Error(`The app server logs in ${SERVER_LOGS_DIR} have no request lines.`);
  const recorded = existsSync(SECRETS_FILE) ? readFileSync(SECRETS_FILE, "utf8").split("\n").filter(Boolean) : [];
  const configured = options.configured ?? [];
  const leaks: string[] = [];
  for (const { name, text } of logs) {
    for (const secret of [...recorded, ...configured])
      if (text.includes(secret)) leaks.push(`${name}: ${secret.slice(0, 8)}…`);
    const shaped = UNMASKED.exec(text);
    if (shaped) leaks.push(`${name}: an unmasked ${shaped[0].slice(0, 8)}…`);
  }
  if (leaks.length > 0) throw new Error(`Secrets in the app server logs:\n${leaks.join("\n")}`);
  console.log(
    `server logs: ${logs.length} files checked for ${recorded.length} recorded keys/tokens and ${configured.length} configured secrets: none found`,
  );
}
