import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createUser, useTestDatabase } from "@/test/app-db";
import { bearer, callRoute } from "@/test/request";
import { startFakeOpenAiAsr, type FakeOpenAiAsr } from "@/test/fakes/openai-asr/server";
import { startFakePodcastServer, toneWav, type FakePodcastServer } from "@/test/fakes/podcasts/server";

// Through the real job pipeline: an episode whose feed publishes only a text/plain transcript is recognised
// (an OpenAI-compatible fake hears the words, a little wrong), and the stored transcript's segments carry
// the speakers the text names, with the recogniser's text and times.

const HEARD =
  "welcome back to the show. today we talk about transcripts. thanks for having me gilan. i have been reading them for years. then let us begin.";

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let asr: FakeOpenAiAsr;
let fake: FakePodcastServer;
let dataDir: string;
let runner: { stop(): Promise<void> };

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "verbatim-textnames-"));
  fake = await startFakePodcastServer();
  fake.audio = toneWav(20);
  asr = await startFakeOpenAiAsr();
  // A pause of a second after each sentence, as between speakers.
  let at = 0;
  const words = HEARD.split(" ").map((word) => {
    const w = { word, start: at, end: at + 0.3 };
    at += word.endsWith(".") ? 1.4 : 0.4;
    return w;
  });
  asr.respondWith(() => ({ words }));
  Object.assign(process.env, {
    DATA_DIR: dataDir,
    ASR_OPENAI_BASE_URL: asr.origin,
    OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
  });
  ctx = await useTestDatabase();
  const { appPipelines } = await import("@/lib/app/pipelines");
  const { startLocalRunner } = await import("@/lib/jobs/drivers/local");
  runner = await startLocalRunner({ pipelines: appPipelines, pollMs: 250, log: () => undefined });
});

afterAll(async () => {
  await runner?.stop();
  await asr?.close();
  await fake?.close();
  await ctx?.teardown();
  rmSync(dataDir, { recursive: true, force: true });
});

it("a recognised episode gets the names its podcast's text transcript gives", async () => {
  const user = await createUser(ctx.db);
  const { key } = await (await import("@/lib/auth/api-keys")).ensureApiKey(user.id);
  const audio = `${fake.origin}/ex/text-1.mp3`;
  const { rememberEpisodeTranscripts } = await import("@/lib/podcasts/episode-transcripts");
  await rememberEpisodeTranscripts(
    user.id,
    [
      {
        guid: "text-1",
        title: "Text transcript",
        audioUrl: audio,
        published: null,
        duration: null,
        transcripts: [{ url: `${fake.origin}/ex/text-1/transcript.txt`, type: "text/plain", language: "en" }],
      },
    ],
    { allowPrivateFor: (host) => host === "127.0.0.1" },
  );
  const transcriptRoute = (await import("@/app/v1/transcript/route")).POST;
  const res = await callRoute(transcriptRoute, "/v1/transcript", {
    headers: bearer(key!),
    body: { audio, lang: "en" },
  });
  expect(res.status).toBe(202);

  let stored = null;
  for (let i = 0; i < 300 && !stored; i++) {
    stored = await ctx.db.transcript.findFirst({ where: { origin: "asr", platform: "podcast" } });
    if (!stored) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const segments = stored!.segments as Array<{ text: string; speaker?: string }>;
  const text = segments.map((s) => s.text).join(" ");
  expect(text).toContain("gilan");
  expect(segments.map((s) => [s.speaker, s.text])).toEqual([
    ["Travis", "welcome back to the show. today we talk about transcripts."],
    ["Gilon", "thanks for having me gilan."],
    ["Gilon", "i have been reading them for years."],
    // Recognised as one segment with the sentence before it: split at the turn, each piece with its words.
    ["Travis", "then let us begin."],
  ]);
  const last = stored!.segments as Array<{ start: number; words?: { start: number }[] }>;
  expect(last.at(-1)!.start).toBe(last.at(-1)!.words![0]!.start);
});
