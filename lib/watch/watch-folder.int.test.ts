import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/test/app-db";
import { speech } from "@/test/speech";
import { startTranscribeJobs, type TranscribeJobs } from "@/test/transcribe-jobs";
import { startFakeOpenAiAsr, type FakeOpenAiAsr } from "@/test/fakes/openai-asr/server";
import { waitUntil } from "@/test/wait";
import type { WatchSettings } from "@/lib/watch/settings";

// The watch folder end to end on real PostgreSQL: real espeak-ng speech dropped in a folder, probed and converted
// by the real ffmpeg in the app's transcription job (the local runner), recognised by the OpenAI-compatible fake,
// its results written beside it (or, with no formats, only to the account's export destinations). Each test has a
// folder and an account of its own. A restart is a new WatchFolder
// (nothing kept in memory) on the same database.

const WORDS = ["Bread", "rises", "because", "yeast", "makes", "gas."];

let jobs: TranscribeJobs;
let asr: FakeOpenAiAsr;
let dataDir: string;
let wav: Buffer;
let WatchFolder: typeof import("@/lib/watch/watch-folder").WatchFolder;
let exportRoot: string;

beforeAll(async () => {
  dataDir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "verbatim-watch-")));
  exportRoot = path.join(dataDir, "vaults");
  mkdirSync(exportRoot);
  process.env.EXPORT_FOLDER_ROOT = exportRoot;
  wav = await speech("Bread rises because yeast makes gas.");
  asr = await startFakeOpenAiAsr();
  asr.respondWith(() => ({ words: WORDS.map((word, i) => ({ word, start: 0.3 + i * 0.4, end: 0.6 + i * 0.4 })) }));
  jobs = await startTranscribeJobs(dataDir, { ASR_OPENAI_BASE_URL: asr.origin });
  ({ WatchFolder } = await import("@/lib/watch/watch-folder"));
});

afterAll(async () => {
  await jobs?.stop();
  await asr?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A folder and an account of its own; a clock the test moves (each look is a second later). */
async function setup(name: string, settleMs = 0) {
  const dir = path.join(dataDir, name);
  mkdirSync(dir);
  const user = await createUser(jobs.ctx.db);
  const settings: WatchSettings = {
    dir,
    account: user.email!.toUpperCase(), // the e-mail matches whatever its case
    formats: ["srt", "md"],
    lang: "en",
    pollMs: 50,
    settleMs,
  };
  let now = 0;
  const watch = () => new WatchFolder(settings, () => (now += 1000));
  return { dir, user, settings, watch };
}

/** Looks at the folder until `done` holds. */
function lookUntil(what: string, folder: InstanceType<typeof WatchFolder>, done: () => boolean | Promise<boolean>) {
  return waitUntil(
    what,
    async () => {
      await folder.tick();
      return (await done()) || null;
    },
    { timeoutMs: 90_000, everyMs: 50 },
  );
}

const jobsOf = (userId: string) => jobs.ctx.db.job.count({ where: { userId } });

describe("the watch folder", () => {
  it("a recording becomes one transcript, kept once across a restart and a rename; nothing is deleted", async () => {
    const { dir, user, watch } = await setup("once");
    mkdirSync(path.join(dir, "Interviews 2026"));
    const talk = path.join(dir, "Interviews 2026", "Bäcker – Teig.wav");
    writeFileSync(talk, wav);
    const first = watch();
    await lookUntil("the results beside the recording", first, () => existsSync(`${talk}.md`));
    const srt = readFileSync(`${talk}.srt`, "utf8");
    expect(srt).toMatch(/^1\n00:00:00,300 --> /);
    expect(srt).toContain("Bread rises because yeast makes gas.");
    expect(readFileSync(`${talk}.md`, "utf8")).toContain("Bread rises");
    expect(await jobsOf(user.id)).toBe(1);
    const recognised = asr.requests.length;
    // In the account's history, as an upload is.
    expect(await jobs.ctx.db.transcription.findMany({ where: { userId: user.id } })).toMatchObject([
      { platform: "upload", state: "done" },
    ]);

    // A restart (nothing in memory), the file renamed: no second job, the results beside the new name too.
    const renamed = path.join(dir, "renamed.wav");
    renameSync(talk, renamed);
    const second = watch();
    await lookUntil("the results beside the new name", second, () => existsSync(`${renamed}.md`));
    expect(readFileSync(`${renamed}.srt`, "utf8")).toBe(srt);
    await second.tick();
    await watch().tick();
    expect(await jobsOf(user.id)).toBe(1);
    expect(asr.requests.length).toBe(recognised);
    expect(await jobs.ctx.db.watchedFile.findMany({ where: { userId: user.id } })).toMatchObject([
      { path: "renamed.wav", state: "done" },
    ]);
    // Nothing deleted, nothing left half-written.
    expect(readdirSync(path.join(dir, "Interviews 2026")).sort()).toEqual(
      ["Bäcker – Teig.wav.md", "Bäcker – Teig.wav.srt"].sort(),
    );
    expect(readdirSync(dir).sort()).toEqual(["Interviews 2026", "renamed.wav", "renamed.wav.md", "renamed.wav.srt"]);
  });

  it("a file that is not audio or video gets a note beside it, and nothing else happens", async () => {
    const { dir, user, watch } = await setup("notes");
    writeFileSync(path.join(dir, "minutes.pdf"), "%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n");
    writeFileSync(path.join(dir, "silence.mp3"), Buffer.alloc(0)); // empty: never settled, never noted
    const folder = watch();
    const note = path.join(dir, "minutes.pdf.verbatim-error.txt");
    await lookUntil("the note", folder, () => existsSync(note));
    expect(readFileSync(note, "utf8")).toMatch(
      /^Verbatim did not transcribe "minutes.pdf": it is not an audio or video/,
    );
    await folder.tick();
    await folder.tick();
    expect(readdirSync(dir).sort()).toEqual(["minutes.pdf", "minutes.pdf.verbatim-error.txt", "silence.mp3"]);
    expect(await jobsOf(user.id)).toBe(0);
    expect(await jobs.ctx.db.upload.count({ where: { userId: user.id } })).toBe(0);
    expect(await jobs.ctx.db.watchedFile.findMany({ where: { userId: user.id } })).toMatchObject([
      { path: "minutes.pdf", state: "noted" },
    ]);
  });

  it("a file still being copied is waited for, then read once whole", async () => {
    const { dir, user, watch } = await setup("growing", 2500);
    const file = path.join(dir, "slow copy.wav");
    const folder = watch();
    const chunk = 4096;
    let written = Math.floor(wav.length / 2);
    writeFileSync(file, wav.subarray(0, written));
    // Each look is a second later and the copy grows between looks: never the same for 2.5 s, never read.
    for (let look = 0; look < 6; look += 1) {
      await folder.tick();
      appendFileSync(file, wav.subarray(written, written + chunk));
      written += chunk;
    }
    expect(await jobs.ctx.db.watchedFile.count({ where: { userId: user.id } })).toBe(0);
    expect(await jobsOf(user.id)).toBe(0);
    appendFileSync(file, wav.subarray(written));
    expect(readFileSync(file).equals(wav)).toBe(true);
    await lookUntil("the results of the whole file", folder, () => existsSync(`${file}.srt`));
    expect(await jobsOf(user.id)).toBe(1);
    const row = await jobs.ctx.db.watchedFile.findFirstOrThrow({ where: { userId: user.id } });
    expect(row.sizeBytes).toBe(BigInt(wav.length));
  });

  it("a team's folder with no formats: nothing beside the file, the note in the team's folder destination", async () => {
    const dir = path.join(dataDir, "team");
    mkdirSync(dir);
    const slug = `newsroom-${Math.random().toString(36).slice(2, 8)}`;
    const team = await jobs.ctx.db.user.create({ data: { kind: "team", name: "Newsroom", slug } });
    const { createDestination } = await import("@/lib/exports/destinations/create-destination");
    await createDestination({ userId: team.id, personId: null }, { kind: "folder", path: "newsroom vault" });
    const { startExportRunner } = await import("@/lib/exports/destinations/runner");
    const { createOutbound } = await import("@/lib/http/outbound");
    const runner = startExportRunner({ db: jobs.ctx.db, outbound: createOutbound(), pollMs: 50, listenUrl: null });
    try {
      const settings: WatchSettings = { dir, account: slug, formats: [], lang: "en", pollMs: 50, settleMs: 0 };
      let now = 0;
      const folder = new WatchFolder(settings, () => (now += 1000));
      writeFileSync(path.join(dir, "standup.wav"), wav);
      const vault = path.join(exportRoot, "newsroom vault");
      const notes = () => (existsSync(vault) ? readdirSync(vault).filter((name) => name.endsWith(".md")) : []);
      await lookUntil("the note in the team's vault", folder, () => notes().length === 1);
      expect(readFileSync(path.join(vault, notes()[0]!), "utf8")).toContain("Bread rises because yeast makes gas.");
      // Filed in the team's library, as its key would file it; nothing but the recording in the folder.
      expect(await jobs.ctx.db.transcription.findMany({ where: { userId: team.id } })).toMatchObject([
        { platform: "upload", state: "done", actorId: null },
      ]);
      await folder.tick();
      expect(readdirSync(dir)).toEqual(["standup.wav"]);
    } finally {
      await runner.stop();
    }
  });
});
