import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// The committed lockfile is the one npm writes with every platform's optional packages
// (docs/decisions/0005-a-lockfile-for-every-platform.md), so `npm ci` (CI's install, the Dockerfile's) accepts it and
// installs a working tree on macOS and Linux, arm64 and x64. `npm ci` itself (in .ci/run) is the sync check; this
// test says which platform package went missing, and that every package with an install script has been reviewed in
// package.json's allowScripts.

interface LockEntry {
  version?: string;
  os?: string[];
  cpu?: string[];
  libc?: string[];
  hasInstallScript?: boolean;
  optional?: boolean;
}

const manifest = JSON.parse(readFileSync("package.json", "utf8")) as {
  allowScripts: Record<string, boolean>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  optionalDependencies: Record<string, string>;
};
const lock = JSON.parse(readFileSync("package-lock.json", "utf8")) as {
  packages: Record<string, LockEntry & Record<string, unknown>>;
};

/** The platforms the README and the Dockerfile support. */
const PLATFORMS = [
  { os: "darwin", cpu: "arm64" },
  { os: "darwin", cpu: "x64" },
  { os: "linux", cpu: "arm64" },
  { os: "linux", cpu: "x64" },
] as const;

/** The native packages the build and the app need, as name patterns of their per-platform packages. */
const NATIVE = {
  "Next.js's SWC": /^@next\/swc-/,
  "Tailwind's oxide": /^@tailwindcss\/oxide-/,
  lightningcss: /^lightningcss-/,
  "the whisper.cpp binding": /^@fugood\/node-whisper-/,
  deno: /^@deno\//,
  ffmpeg: /^@ffmpeg-installer\/(?!ffmpeg$)/,
  ffprobe: /^@ffprobe-installer\/(?!ffprobe$)/,
};

const entries = Object.entries(lock.packages)
  .filter(([key]) => key.startsWith("node_modules/"))
  .map(([key, entry]) => ({ name: key.slice(key.lastIndexOf("node_modules/") + "node_modules/".length), entry }));

describe("package-lock.json", () => {
  it("records package.json's dependencies exactly as written", () => {
    const root = lock.packages[""] as Record<string, Record<string, string> | undefined>;
    expect(root.dependencies).toEqual(manifest.dependencies);
    expect(root.devDependencies).toEqual(manifest.devDependencies);
    expect(root.optionalDependencies).toEqual(manifest.optionalDependencies);
  });

  for (const [what, pattern] of Object.entries(NATIVE)) {
    it(`has ${what} for macOS and Linux, arm64 and x64`, () => {
      const builds = entries.filter(({ name }) => pattern.test(name));
      const missing = PLATFORMS.filter(
        ({ os, cpu }) =>
          !builds.some(
            ({ entry }) =>
              entry.os?.includes(os) && entry.cpu?.includes(cpu) && (os !== "linux" || !entry.libc?.includes("musl")),
          ),
      ).map(({ os, cpu }) => `${os}-${cpu}`);
      expect(missing, `${what}: no package for ${missing.join(", ")}`).toEqual([]);
    });
  }

  it("every package with an install script is reviewed in allowScripts (allowed or denied by name)", () => {
    const unreviewed = entries
      .filter(({ entry }) => entry.hasInstallScript)
      .map(({ name }) => name)
      .filter((name) => !(name in manifest.allowScripts));
    expect(unreviewed).toEqual([]);
  });
});
