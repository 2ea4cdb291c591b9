import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { SECRETS_FILE } from "./helpers";

// After the run: no API key or token the run created (e2e/helpers.ts recordSecrets), no secret the apps
// were configured with, and nothing shaped like one of our keys or tokens, appears in any app server's
// log (playwright.config.ts writes each to test-results/server-logs/).

export const SERVER_LOGS_DIR = path.resolve("test-results", "server-logs");

/** Key- or token-shaped strings the logger's mask would have turned into `vbt_[redacted]`. */
const UNMASKED = /\b(?:vbt|vat|vrt|whsec)_[A-Za-z0-9]{16,}/;

export default async function globalTeardown() {
  if (!existsSync(SERVER_LOGS_DIR))
    throw new Error(`No app server logs in ${SERVER_LOGS_DIR}: the leak check has nothing to read.`);
  const logs = readdirSync(SERVER_LOGS_DIR).map((name) => ({
    name,
    text: readFileSync(path.join(SERVER_LOGS_DIR, name), "utf8"),
  }));
  // Proof that the logs are the apps' request logs, not empty files: otherwise the check below proves nothing.
  if (!logs.some((log) => log.text.includes('"msg":"request"')))
    throw new Error(`The app server logs in ${SERVER_LOGS_DIR} have no request lines.`);
  const recorded = existsSync(SECRETS_FILE) ? readFileSync(SECRETS_FILE, "utf8").split("\n").filter(Boolean) : [];
  const configured = [process.env.E2E_STRIPE_WEBHOOK_SECRET, process.env.E2E_STRIPE_SECRET_KEY].filter(
    (value): value is string => Boolean(value),
  );
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
