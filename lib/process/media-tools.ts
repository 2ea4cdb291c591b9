/**
 * Where ffmpeg and ffprobe come from: the system's when they are on PATH, else the static builds npm ships
 * inside @ffmpeg-installer/ffmpeg and @ffprobe-installer/ffprobe (dependencies, so `npm install` is all a
 * machine needs). Every child process is started with toolSearchPath() (lib/process/run.ts): the system
 * PATH first, then the directories of those builds. A bare "ffmpeg" therefore resolves the same way for
 * our own calls and for yt-dlp, which runs ffmpeg and ffprobe itself (HLS downloads, fix-ups).
 */
import { accessSync, constants, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

import { toolEnvironment } from "@/lib/env";

const INSTALLERS = { ffmpeg: "@ffmpeg-installer/ffmpeg", ffprobe: "@ffprobe-installer/ffprobe" } as const;

export type MediaTool = keyof typeof INSTALLERS;

/** The binary npm installed for `tool`, or null where its installer has no build for this platform. */
export function bundledBinary(tool: MediaTool): string | null {
  try {
    // Required at run time from the project's node_modules, never bundled: the bundler would try to
    // parse the binaries the installers point at.
    const requireFromProject = createRequire(path.join(process.cwd(), "package.json"));
    const installer = requireFromProject(/* turbopackIgnore: true */ INSTALLERS[tool]) as { path?: unknown };
    return typeof installer.path === "string" ? installer.path : null;
  } catch {
    // The installers throw (a string) on a platform/architecture they ship nothing for.
    return null;
  }
}

let bundledDirs: readonly string[] | undefined;

/** The directories of the npm-installed ffmpeg and ffprobe (looked up once per process). */
export function bundledToolDirs(): readonly string[] {
  bundledDirs ??= [
    ...new Set(
      (Object.keys(INSTALLERS) as MediaTool[])
        .flatMap((tool) => bundledBinary(tool) ?? [])
        .map((binary) => path.dirname(binary)),
    ),
  ];
  return bundledDirs;
}

/** The PATH child processes get: the system's (first, so its tools win), then the bundled tools' directories. */
export function toolSearchPath(systemPath: string = toolEnvironment().PATH ?? ""): string {
  return [...systemPath.split(path.delimiter).filter(Boolean), ...bundledToolDirs()].join(path.delimiter);
}

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The file `name` resolves to on `searchPath` (what `command -v` would say), or null. */
export function findExecutable(name: string, searchPath: string = toolSearchPath()): string | null {
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}
