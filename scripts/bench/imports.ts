// Figures for imports, through the real app (`next start`, PostgreSQL, the in-app local runner):
// - a 200-episode feed from the fake podcast host, every episode through the real speech-recognition path
//   (guarded download, ffprobe/ffmpeg) with an instant OpenAI-compatible fake: seconds from POST /v1/import
//   to the batch's `done`, with the default IMPORT_CONCURRENCY (3) and with 8.
// - POST /v1/podcast/resolve of a real 730-episode feed (1.6 MB): p50 over 20 requests.
import { performance } from "node:perf_hooks";
import { startFakeOpenAiAsr } from "../../test/fakes/openai-asr/server";
import { startFakePodcastServer } from "../../test/fakes/podcasts/server";
import { createMigratedTestDatabase } from "../../test/pg";
import { createApiKey, startApp } from "./server";

const EPISODES = 200;

async function importSeconds(
  port: number,
  feedBase: string,
  asrOrigin: string,
  concurrency: string,
): Promise<{ seconds: number; done: number }> {
  const database = await createMigratedTestDatabase();
  const app = await startApp(port, {
    DATABASE_URL: database.url,
    AUTH_SECRET: "bench-secret-bench-secret-bench-secret",
    AUTH_DEV_LOGIN: "true",
    ASR_OPENAI_BASE_URL: asrOrigin,
    OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
    IMPORT_CONCURRENCY: concurrency,
  });
  try {
    // A paid tier's allowance is not the point here: the free 900 s covers 200 one-second episodes.
    const auth = {
      authorization: `Bearer ${await createApiKey(app.baseUrl, `bench-import-${concurrency}@example.test`)}`,
    };
    const started = performance.now();
    const res = await fetch(`${app.baseUrl}/v1/import`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ url: `${feedBase}/generated/${EPISODES}.xml?prefix=bench${concurrency}&durations=0` }),
    });
    if (res.status !== 200) throw new Error(`POST /v1/import: ${res.status} ${await res.text()}`);
    const { batch_id } = (await res.json()) as { batch_id: string };
    for (;;) {
      const batch = (await (await fetch(`${app.baseUrl}/v1/import/${batch_id}`, { headers: auth })).json()) as {
        status: string;
        done: number;
      };
      if (["done", "partial", "error"].includes(batch.status))
        return { seconds: (performance.now() - started) / 1000, done: batch.done };
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await app.stop();
    await database.drop();
  }
}

export async function benchImports(): Promise<Record<string, number>> {
  const feeds = await startFakePodcastServer();
  const asr = await startFakeOpenAiAsr();
  asr.respondWith(() => ({ words: [{ word: "Hello.", start: 0.1, end: 0.6 }] }));
  const figures: Record<string, number> = {};
  try {
    const defaults = await importSeconds(4801, feeds.origin, asr.origin, "3");
    figures[`import ${EPISODES} episodes, concurrency 3: seconds`] = defaults.seconds;
    figures[`import ${EPISODES} episodes, concurrency 3: done`] = defaults.done;
    const eight = await importSeconds(4802, feeds.origin, asr.origin, "8");
    figures[`import ${EPISODES} episodes, concurrency 8: seconds`] = eight.seconds;

    const database = await createMigratedTestDatabase();
    const app = await startApp(4803, {
      DATABASE_URL: database.url,
      AUTH_SECRET: "bench-secret-bench-secret-bench-secret",
      AUTH_DEV_LOGIN: "true",
      OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
    });
    try {
      const auth = { authorization: `Bearer ${await createApiKey(app.baseUrl, "bench-resolve@example.test")}` };
      const times: number[] = [];
      for (let i = 0; i < 21; i++) {
        const t = performance.now();
        const res = await fetch(`${app.baseUrl}/v1/podcast/resolve`, {
          method: "POST",
          headers: { ...auth, "content-type": "application/json" },
          body: JSON.stringify({ url: `${feeds.origin}/feeds/giantbomb-podcast.rss` }),
        });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`resolve: ${res.status}`);
        if (i > 0) times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      figures["resolve 730-episode feed (1.6 MB): p50 ms"] = times[Math.floor(times.length / 2)]!;
    } finally {
      await app.stop();
      await database.drop();
    }
  } finally {
    await asr.close();
    await feeds.close();
  }
  return figures;
}
