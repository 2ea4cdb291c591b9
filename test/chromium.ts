// The Chromium the e2e tests drive: CHROMIUM_PATH when set, else the system's headless shell
// (/usr/bin/chromium-headless-shell, Debian's package, as CI installs it), else the system's full Chromium
// (/usr/bin/chromium), else Playwright's own build, which `npm run test:e2e` installs first (`playwright install
// chromium`: a no-op when it is already there). The headless shell is what Playwright itself runs for headless
// tests, and without the full browser's UI it spends less CPU on the same pages.
//
//   tsx test/chromium.ts   installs Playwright's Chromium when there is no other (test:e2e runs it)
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const SYSTEM_HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
export const SYSTEM_CHROMIUM = "/usr/bin/chromium";

/** The executable to launch, or undefined for Playwright's own Chromium. */
export function chromiumExecutable(
  env: Record<string, string | undefined> = process.env,
  exists: (file: string) => boolean = existsSync,
): string | undefined {
  if (env.CHROMIUM_PATH) return env.CHROMIUM_PATH;
  return [SYSTEM_HEADLESS_SHELL, SYSTEM_CHROMIUM].find((file) => exists(file));
}

/** The command that makes a browser available before the e2e run, or null when one is already chosen. */
export function browserInstallCommand(executable: string | undefined): string[] | null {
  return executable === undefined ? ["npx", "playwright", "install", "chromium"] : null;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const executable = chromiumExecutable();
  const command = browserInstallCommand(executable);
  if (command === null) {
    console.log(`e2e: Chromium at ${executable}`);
  } else {
    console.log(`e2e: no CHROMIUM_PATH and no ${SYSTEM_CHROMIUM}: ${command.join(" ")}`);
    const result = spawnSync(command[0], command.slice(1), { stdio: "inherit" });
    process.exit(result.status ?? 1);
  }
}
