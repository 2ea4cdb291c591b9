import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { findExecutable } from "@/lib/process/media-tools";
import type { FakePodcastServer } from "@/test/fakes/podcasts/server";
import { startImportWorld, type ImportWorld } from "@/test/imports";
import { callRoute } from "@/test/request";
import { waitUntil } from "@/test/wait";

// Titles everywhere, end to end through the real pipelines (local runner, real
// PostgreSQL, ffprobe/ffmpeg, the OpenAI-compatible fake): an imported episode keeps its feed's title and
// its show (history search finds the show), a direct audio link is titled from its file name or its
// own title tag, and a download is named after the title.

let world: ImportWorld;
let fake: FakePodcastServer;
let routes: {
  importStart: typeof import("@/app/v1/import/route").POST;
  importGet: typeof import("@/app/v1/import/[batch_id]/route").GET;
  transcribe: typeof import("@/app/v1/transcript/route").POST;
  history: typeof import("@/app/v1/me/transcriptions/route").GET;
  download: typeof import("@/app/v1/transcripts/[id]/download/route").GET;
};

interface Entry {
  title: string | null;
  status: string;
  source: string;
  video_id: string;
  transcript_id: string | null;
}

beforeAll(async () => {
  world = await startImportWorld("titles");
  fake = world.podcasts;
  routes = {
    importStart: (await import("@/app/v1/import/route")).POST,
    importGet: (await import("@/app/v1/import/[batch_id]/route")).GET,
    transcribe: (await import("@/app/v1/transcript/route")).POST,
    history: (await import("@/app/v1/me/transcriptions/route")).GET,
    download: (await import("@/app/v1/transcripts/[id]/download/route")).GET,
  };
});

afterAll(async () => {
  await world?.close();
});

async function history(headers: Record<string, string>, q?: string): Promise<Entry[]> {
  const res = await callRoute(routes.history, `/v1/me/transcriptions${q ? `?q=${encodeURIComponent(q)}` : ""}`, {
    headers,
  });
  expect(res.status).toBe(200);
  return (res.json as { transcriptions: Entry[] }).transcriptions;
}

/** The download route's answer (a file, not JSON). */
async function download(headers: Record<string, string>, id: string, format: string): Promise<Response> {
  const request = new NextRequest(new URL(`/v1/transcripts/${id}/download?format=${format}`, "http://localhost:3000"), {
    headers,
  });
  return routes.download(request, { params: Promise.resolve({ id }) });
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  let last: T | undefined;
  return waitUntil(
    what,
    async () => {
      last = await read();
      return done(last) ? { value: last } : null;
    },
    { timeoutMs: 120_000, everyMs: 100, state: () => last },
  ).then(({ value }) => value);
}

describe("titles", () => {
  it("imported podcast episodes keep their feed's titles, and history search finds the show's name", async () => {
    const { headers } = await world.caller();
    const started = await callRoute(routes.importStart, "/v1/import", {
      headers,
      body: { url: `${fake.origin}/generated/3.xml?prefix=titled` },
    });
    expect(started.status).toBe(200);
    const id = (started.json as { batch_id: string }).batch_id;
    await until(
      async () =>
        (await callRoute(routes.importGet, `/v1/import/${id}`, { headers, params: { batch_id: id } })).json as {
          status: string;
        },
      (batch) => ["done", "partial", "error"].includes(batch.status),
      "the import",
    );
    const entries = await history(headers);
    expect(entries.map((e) => [e.title, e.status]).sort()).toEqual([
      ["Episode 1", "done"],
      ["Episode 2", "done"],
      ["Episode 3", "done"],
    ]);
    expect(await history(headers, "Generated show")).toHaveLength(3);
    expect(await history(headers, "Episode 2")).toHaveLength(1);
  });

  it("a direct lecture.mp3 link is titled from its file name, at once and once transcribed; a download is named after it", async () => {
    const { headers } = await world.caller();
    const res = await callRoute(routes.transcribe, "/v1/transcript", {
      headers,
      body: { audio: `${fake.origin}/ex/courses/Lecture%2003.mp3` },
    });
    expect(res.status).toBe(202);
    expect((await history(headers))[0]?.title).toBe("Lecture 03.mp3");
    const [entry] = await until(
      () => history(headers),
      (list) => list[0]?.status === "done",
      "the transcription",
    );
    expect(entry?.title).toBe("Lecture 03.mp3");

    const file = await download(headers, entry!.transcript_id!, "srt");
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toBe('attachment; filename="Lecture 03.mp3 (en).srt"');
  });

  it("the file's own title tag replaces the file name; a non-ASCII title downloads as filename* with an ASCII fallback", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "verbatim-titles-"));
    try {
      const tagged = path.join(dir, "tagged.mp3");
      await promisify(execFile)(findExecutable("ffmpeg") ?? "ffmpeg", [
        "-hide_banner",
        "-nostdin",
        "-loglevel",
        "error",
        "-y",
        "-f",
        "lavfi",
        "-i",
        "sine=frequency=440:duration=1",
        "-metadata",
        "title=Café: Entropie / Teil 1",
        "-ac",
        "1",
        "-b:a",
        "32k",
        tagged,
      ]);
      fake.audio = await readFile(tagged);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const { headers } = await world.caller();
    const res = await callRoute(routes.transcribe, "/v1/transcript", {
      headers,
      body: { audio: `${fake.origin}/ex/ep-4471.mp3` },
    });
    expect(res.status).toBe(202);
    const [entry] = await until(
      () => history(headers),
      (list) => list[0]?.status === "done",
      "the transcription",
    );
    expect(entry?.title).toBe("Café: Entropie / Teil 1");

    const file = await download(headers, entry!.transcript_id!, "text");
    expect(file.headers.get("content-disposition")).toBe(
      `attachment; filename="Cafe Entropie Teil 1 (en).txt"; filename*=UTF-8''Caf%C3%A9%20Entropie%20Teil%201%20%28en%29.txt`,
    );
  });
});
