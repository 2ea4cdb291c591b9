import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createCaller, useTestRunner } from "@/test/app-db";
import { startFakePodcastServer, type FakePodcastServer } from "@/test/fakes/podcasts/server";
import { startFakeOpenAiAsr } from "@/test/fakes/openai-asr/server";

/**
 * What the import suites share: a data folder, the fake podcast host, an OpenAI-compatible recogniser that
 * hears "Hello." at once, a database of their own, and the local runner (4 at a time) running the import and
 * transcribe pipelines. `env` adds settings (it may use the podcast host's origin).
 */
export async function startImportWorld(
  name: string,
  env: (podcasts: FakePodcastServer) => Record<string, string> = () => ({}),
) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `verbatim-${name}-`));
  const podcasts = await startFakePodcastServer();
  const asr = await startFakeOpenAiAsr();
  asr.respondWith(() => ({ words: [{ word: "Hello.", start: 0.1, end: 0.6 }] }));
  Object.assign(process.env, {
    DATA_DIR: dataDir,
    ASR_OPENAI_BASE_URL: asr.origin,
    OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
    IMPORT_CONCURRENCY: "4",
    RATE_LIMIT_MULTIPLIER: "0",
    ...env(podcasts),
  });
  const ctx = await useTestRunner({ concurrency: 4 });
  return {
    ctx,
    podcasts,
    asr,
    /** A new user with an API key: `{ userId, headers }`. */
    caller: () => createCaller(ctx.db),
    async close() {
      await ctx.stop();
      await asr.close();
      await podcasts.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type ImportWorld = Awaited<ReturnType<typeof startImportWorld>>;
