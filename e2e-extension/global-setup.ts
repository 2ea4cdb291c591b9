import { spawnSync } from "node:child_process";

import { buildExtension } from "../scripts/build-extension";
import { browserInstallCommand } from "../test/chromium";
import { EXTENSION_CHROMIUM } from "./browser";

/** The extension the tests load is the one built from this checkout, each run; Playwright's Chromium if no other. */
export default async function globalSetup() {
  const install = browserInstallCommand(EXTENSION_CHROMIUM);
  if (install && spawnSync(install[0], install.slice(1), { stdio: "inherit" }).status !== 0)
    throw new Error(
      `The extension tests need full Chromium: ${install.join(" ")} failed (or apt-get install chromium).`,
    );
  await buildExtension();
}
