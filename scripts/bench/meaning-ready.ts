// A fresh install's first answer by meaning (`npm run bench -- meaning-ready`): the built app (`npm run build`, whose
// postbuild makes the default embedder's files, scripts/models-build.ts) started as `npm start` starts it on a new
// data folder and the embedded database, a first transcript added (a captioned video through the YouTube fake), then
// a question in other words than the speaker's asked every QUESTION_EVERY_MS until a moment answers it by meaning.
// Figures: the start, and seconds from the first transcript to the first answer by meaning (goal: at most 60).
import { existsSync } from "node:fs";
import path from "node:path";
import { startFakeYoutube } from "../../test/fakes/youtube/server";
import { createApiKey, startApp } from "./server";

const PORT = Number(process.env.BENCH_MEANING_READY_PORT ?? 3473);
/** The captioned video of the fake (test/fakes/youtube/fixtures): a baker on why bread rises. */
const VIDEO = "Hq7sWc2dT4E";
/** Said nowhere in these words: the video speaks of yeast, gas bubbles and the loaf getting bigger. */
const QUESTION = "what makes a loaf puff up when it is left out overnight";
const QUESTION_EVERY_MS = 250;
const GIVE_UP_MS = 10 * 60_000;

export async function benchMeaningReady(): Promise<Record<string, number>> {
  if (!existsSync(path.resolve(".next", "verbatim-models")))
    throw new Error("meaning-ready measures the built app with its models: run `npm run build` first");
  const youtube = await startFakeYoutube();
  const app = await startApp(PORT, {
    AUTH_SECRET: process.env.AUTH_SECRET ?? "bench-secret-bench-secret-bench-secret",
    AUTH_DEV_LOGIN: "true",
    YOUTUBE_BASE_URL: youtube.url,
    OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
  });
  try {
    const headers = { authorization: `Bearer ${await createApiKey(app.baseUrl)}` };
    const asked = performance.now();
    const added = await fetch(`${app.baseUrl}/v1/transcript`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ url: `https://www.youtube.com/watch?v=${VIDEO}` }),
    });
    await added.arrayBuffer();
    if (added.status !== 200) throw new Error(`POST /v1/transcript: ${added.status}`);
    const transcribed = performance.now();
    let questions = 0;
    for (;;) {
      questions++;
      const search = await fetch(`${app.baseUrl}/v1/me/search?q=${encodeURIComponent(QUESTION)}&mode=meaning`, {
        headers,
      });
      const body = (await search.json()) as { results?: unknown[] };
      if (search.status !== 200) throw new Error(`search: ${search.status} ${JSON.stringify(body)}`);
      if ((body.results?.length ?? 0) > 0) break;
      if (performance.now() - transcribed > GIVE_UP_MS) throw new Error("no answer by meaning in ten minutes");
      await new Promise((resolve) => setTimeout(resolve, QUESTION_EVERY_MS));
    }
    return {
      "a fresh install's start to its first 200 with the database up (s)": app.startupSeconds,
      "its first transcript, from captions (s)": (transcribed - asked) / 1000,
      "from the first transcript to its first answer by meaning (s, goal <= 60)":
        (performance.now() - transcribed) / 1000,
      "questions asked until then": questions,
    };
  } finally {
    await app.stop();
    await youtube.close();
  }
}
