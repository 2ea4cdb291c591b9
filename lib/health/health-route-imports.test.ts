import path from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

// The first /health after a start waits for every module its route imports (the bench's start-up figures end at
// that answer): what only a refresh, a probe or a recogniser needs is loaded later, by dynamic import. esbuild
// lists the route's module graph; this walks its static imports only.

const root = path.resolve(import.meta.dirname, "..", "..");

async function staticModules(entry: string): Promise<string[]> {
  const { metafile } = await build({
    entryPoints: [path.join(root, entry)],
    absWorkingDir: root,
    bundle: true,
    write: false,
    metafile: true,
    platform: "node",
    format: "esm",
    logLevel: "silent",
    alias: { "@": root },
    // Packages are not followed: the imports of them are listed by name.
    packages: "external",
  });
  const seen = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file) || !metafile.inputs[file]) continue;
    seen.add(file);
    for (const next of metafile.inputs[file].imports) {
      if (next.kind === "dynamic-import") continue;
      if (next.external) seen.add(next.path);
      else pending.push(next.path);
    }
  }
  return [...seen];
}

describe("GET /health's route", () => {
  it("loads none of the setup probes, the yt-dlp runner, the recognisers or the outbound stack before answering", async () => {
    const modules = await staticModules("app/health/route.ts");
    expect(modules).toContain("lib/health/check-health.ts");
    const heavy = modules.filter((file) =>
      /^(youtubei\.js|stripe|nodemailer|undici|assemblyai)$|lib\/health\/run-setup-checks\.ts|lib\/captions\/ytdlp\/status\.ts|lib\/transcripts\/asr-provider\.ts|lib\/http\/outbound\//.test(
        file,
      ),
    );
    expect(heavy).toEqual([]);
  }, 60_000);
});
