import { execFileSync } from "node:child_process";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { browserInstallCommand, chromiumExecutable, SYSTEM_CHROMIUM, SYSTEM_HEADLESS_SHELL } from "./chromium";

const there = () => true;
const absent = () => false;

describe("the e2e Chromium", () => {
  it("CHROMIUM_PATH wins, whatever else is installed", () => {
    expect(chromiumExecutable({ CHROMIUM_PATH: "/opt/chrome/chrome" }, there)).toBe("/opt/chrome/chrome");
    expect(chromiumExecutable({ CHROMIUM_PATH: "/opt/chrome/chrome" }, absent)).toBe("/opt/chrome/chrome");
  });

  it("else the system's headless shell, else its full Chromium", () => {
    expect(chromiumExecutable({}, there)).toBe(SYSTEM_HEADLESS_SHELL);
    expect(chromiumExecutable({}, (file) => file === SYSTEM_CHROMIUM)).toBe(SYSTEM_CHROMIUM);
    expect(browserInstallCommand(SYSTEM_HEADLESS_SHELL)).toBeNull();
    expect(browserInstallCommand(SYSTEM_CHROMIUM)).toBeNull();
  });

  it("else Playwright's own, installed before the run", () => {
    expect(chromiumExecutable({ CHROMIUM_PATH: "" }, absent)).toBeUndefined();
    expect(browserInstallCommand(undefined)).toEqual(["npx", "playwright", "install", "chromium"]);
  });

  it("the script says which it chose", () => {
    const script = path.join(import.meta.dirname, "chromium.ts");
    const tsx = path.join(import.meta.dirname, "..", "node_modules", ".bin", "tsx");
    const out = execFileSync(tsx, [script], {
      env: { ...process.env, CHROMIUM_PATH: "/opt/chrome/chrome" },
      encoding: "utf8",
    });
    expect(out.trim()).toBe("e2e: Chromium at /opt/chrome/chrome");
  });
});
