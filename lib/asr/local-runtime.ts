/**
 * Where the local recogniser's runtime is: whisper.cpp's prebuilt Node module for this platform, one of
 * the exact-version optionalDependencies in package.json (@fugood/node-whisper-linux-x64, -linux-arm64,
 * -darwin-arm64, -darwin-x64). npm installs only the one matching this machine and skips the others, so
 * `npm install` never fails where there is none: then the local recogniser is unavailable and says why.
 * Only the path is looked up here; the native code is loaded in the child process alone.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

export type LocalRuntime = { available: true; package: string; bindingPath: string } | { available: false; package: string; reason: string };

let cached: LocalRuntime | undefined;

/** The runtime package for this platform and where its native module is. */
export function localRuntime(): LocalRuntime {
  if (cached) return cached;
  const name = `@fugood/node-whisper-${process.platform}-${process.arch}`;
  try {
    const require = createRequire(path.join(process.cwd(), "package.json"));
    const manifest = require.resolve(`${name}/package.json`);
    const bindingPath = path.join(path.dirname(manifest), "index.node");
    if (!existsSync(bindingPath)) throw new Error(`${bindingPath} is missing`);
    cached = { available: true, package: name, bindingPath };
  } catch (error) {
    cached = {
      available: false,
      package: name,
      reason: `local speech recognition has no runtime for ${process.platform}-${process.arch} (${name} is not installed: ${(error as Error).message.split("\n")[0]})`,
    };
  }
  return cached;
}
