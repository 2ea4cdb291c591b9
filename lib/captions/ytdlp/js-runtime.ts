/**
 * The JavaScript runtime yt-dlp needs for YouTube (since yt-dlp 2025.11: without one, YouTube's player
 * challenges stay unsolved and only images are offered, "Requested format is not available").
 *
 * Deno comes from npm: the `deno` package (an exact-version optionalDependency) pulls in its prebuilt
 * binary as `@deno/<platform>` (linux-x64-glibc, linux-arm64-glibc, darwin-x64, darwin-arm64, win32-x64),
 * hosted on the npm registry, so nothing is downloaded from elsewhere at install. Its postinstall only
 * links that binary into node_modules/deno; it is read here from the platform package itself, so an
 * install with scripts turned off works too. Where neither exists, `deno` on PATH is used.
 *
 * yt-dlp is told which runtime explicitly (`--no-js-runtimes --js-runtimes deno:<path>`). It runs deno
 * as its own child (`deno run --no-remote --cached-only --no-prompt …`, plus `--no-npm` with yt-dlp-ejs)
 * with no `--allow-*` permission, so the solver script has no network, file or environment access at
 * all, and deno itself loads modules only from its cache (DENO_DIR, filled by scripts/install-yt-dlp.sh)
 * or from yt-dlp-ejs's files; yt-dlp sets deno's HTTP(S)_PROXY to its own --proxy, our guard, in case.
 * `--no-remote-components` (BASE_ARGS) keeps yt-dlp from fetching solver code.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

import { findExecutable } from "@/lib/process/media-tools";

/** The npm package that holds deno's binary on this platform, or null where deno ships none. */
export function denoPlatformPackage(
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch,
): string | null {
  if (arch !== "x64" && arch !== "arm64") return null;
  if (platform === "linux") return `@deno/linux-${arch}-glibc`;
  if (platform === "darwin") return `@deno/darwin-${arch}`;
  if (platform === "win32") return `@deno/win32-${arch}`;
  return null;
}

let cachedBinary: string | null | undefined;

/** deno's executable: the npm-installed one for this platform, else `deno` on PATH, else null. */
export function denoBinary(cwd: string = process.cwd()): string | null {
  if (cachedBinary !== undefined) return cachedBinary;
  const file = process.platform === "win32" ? "deno.exe" : "deno";
  const requireFromProject = createRequire(path.join(cwd, "package.json"));
  const candidates: string[] = [];
  for (const pkg of [denoPlatformPackage(), "deno"]) {
    if (!pkg) continue;
    try {
      candidates.push(path.join(path.dirname(requireFromProject.resolve(`${pkg}/package.json`)), file));
    } catch {
      // not installed (an optional dependency; npm skips it where the platform has no build)
    }
  }
  cachedBinary = candidates.find((candidate) => existsSync(candidate)) ?? findExecutable(file);
  return cachedBinary;
}

/** Where deno keeps the solver's npm packages (filled by scripts/install-yt-dlp.sh, beside yt-dlp). */
export function denoCacheDir(cwd: string = process.cwd()): string {
  return path.join(cwd, ".venv", "deno");
}

/** yt-dlp's runtime arguments: only the given deno, or none (yt-dlp then has no runtime at all). */
export function jsRuntimeArgs(deno: string | null): string[] {
  return deno ? ["--no-js-runtimes", "--js-runtimes", `deno:${deno}`] : ["--no-js-runtimes"];
}

/**
 * The variables deno gets from yt-dlp (which passes its own environment on): its cache, no update check,
 * no prompt. Proxy variables are set by yt-dlp itself, to its --proxy (our guard).
 */
export function denoEnv(cwd: string = process.cwd()): Record<string, string> {
  return { DENO_DIR: denoCacheDir(cwd), DENO_NO_UPDATE_CHECK: "1", DENO_NO_PROMPT: "1" };
}
