import { lstatSync, readdirSync } from "node:fs";
import path from "node:path";

/** Every folder and file under `dir` whose mode is not 0700 (folders) or 0600 (files). */
export function notPrivate(dir: string): string[] {
  const mode = (entry: string) => lstatSync(entry).mode & 0o777;
  const wrong = mode(dir) === 0o700 ? [] : [dir];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const entryPath = path.join(dir, entry.name);
    if (entry.isDirectory()) wrong.push(...notPrivate(entryPath));
    else if (mode(entryPath) !== 0o600) wrong.push(entryPath);
  }
  return wrong;
}
