import { execFileSync } from "node:child_process";
import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { expect, type Page, type TestInfo } from "@playwright/test";

import { test } from "./fixtures";
import { randomEmail } from "./helpers";
import { ANSI, buildCli, runCli, startCli } from "../test/cli";
import { FAKE_IDS } from "../test/fakes/youtube/ids";
import { speechWav as writeSpeech } from "../test/speech";
import { findExecutable } from "../lib/process/media-tools";

// The `verbatim` CLI, built, as a child process against the built app with the YouTube and
// speech-recognition fakes (playwright.config.ts). The device login is approved in Chromium on /device.
// The speech fake hears every upload as these two sentences (see e2e/uploads.spec.ts).
const FIRST_SENTENCE = "Welcome to Verbatim.";
const SECOND_SENTENCE = "This audio was uploaded from the dashboard.";
const CAPTIONED = `https://www.youtube.com/watch?v=${FAKE_IDS.captioned}`;

test.beforeAll(() => {
  buildCli();
});

/** One person's CLI: its own config folder, pointed at the app under test. */
function cliEnv(testInfo: TestInfo, baseURL: string | undefined) {
  return { XDG_CONFIG_HOME: testInfo.outputPath("config"), VERBATIM_BASE_URL: baseURL! };
}

/** `verbatim login`: the person opens the printed link, signs in, approves; the CLI stores the login. */
async function login(page: Page, env: Record<string, string>) {
  const email = randomEmail("cli");
  const running = startCli(["login", "--no-browser"], env);
  const [, code] = await running.waitForStderr(/one-time code: (\S+)/);
  const [, link] = await running.waitForStderr(/Open (\S+\/device\?user_code=\S+)/);
  await page.goto(link);
  await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
  await page.getByLabel(/development login/i).fill(email);
  await page.getByRole("button", { name: "Sign in (development)" }).click();
  await expect(page.getByTestId("device-user-code")).toHaveText(code);
  await expect(page.getByTestId("device-client")).toHaveText("verbatim-cli");
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("status")).toContainText("Approved");
  const done = await running.done;
  expect(done.code, done.stderr).toBe(0);
  expect(done.stderr).toContain(`Logged in to ${env.VERBATIM_BASE_URL} as ${email}`);
  expect(done.stdout).toBe("");
  return email;
}

async function filesDir(testInfo: TestInfo) {
  const dir = testInfo.outputPath("files");
  await mkdir(dir, { recursive: true });
  return dir;
}

/** A real WAV of the two sentences, spoken by espeak-ng (the fake does not listen; the app's ffmpeg does). */
async function speechWav(testInfo: TestInfo, name: string) {
  const file = path.join(await filesDir(testInfo), name);
  return writeSpeech(file, `<speak>${FIRST_SENTENCE}<break time="2s"/>${SECOND_SENTENCE}</speak>`, { ssml: true });
}

test("login through /device, get a captioned link to stdout and to a file, get a local file (upload + job), history; a file longer than the allowance exits 4; logout", async ({
  page,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  const env = cliEnv(testInfo, baseURL);
  await login(page, env);

  const me = await runCli(["whoami"], env);
  expect(me.code, me.stderr).toBe(0);
  expect(me.stdout).toMatch(/Tier: free/);

  // A captioned link: the transcript's text on stdout, nothing else there, no colour on a pipe.
  const text = await runCli(["get", CAPTIONED], env);
  expect(text.code, text.stderr).toBe(0);
  expect(text.stdout).toContain("Today we're going to talk about why bread rises");
  expect(text.stdout).not.toMatch(ANSI);
  expect(text.stderr).not.toMatch(ANSI);

  const srt = path.join(await filesDir(testInfo), "bread.srt");
  const toFile = await runCli(["get", CAPTIONED, "--format", "srt", "-o", srt], env);
  expect(toFile.code, toFile.stderr).toBe(0);
  expect(toFile.stdout).toBe("");
  expect(toFile.stderr).toContain(`Wrote ${srt}`);
  expect(await readFile(srt, "utf8")).toMatch(/^1\r?\n00:00:\d\d,\d{3} --> 00:00:\d\d,\d{3}\r?\n/);

  // A local file: uploaded through a signed URL, then the speech-recognition job is waited for.
  const wav = await speechWav(testInfo, "welcome.wav");
  const fromFile = await runCli(["get", wav, "--format", "json", "--json"], env);
  expect(fromFile.code, fromFile.stderr).toBe(0);
  expect(fromFile.stderr).toMatch(/Uploading welcome\.wav/);
  expect(fromFile.stderr).toMatch(/Job [\w-]+ started/);
  const transcript = JSON.parse(fromFile.stdout);
  expect(transcript).toMatchObject({ platform: "upload", source: "asr", title: "welcome.wav", format: "json" });
  expect(transcript.segments.map((s: { text: string }) => s.text)).toEqual([FIRST_SENTENCE, SECOND_SENTENCE]);

  const history = await runCli(["history", "--json"], env);
  expect(history.code, history.stderr).toBe(0);
  const list = JSON.parse(history.stdout);
  expect(list.total).toBe(2);
  expect(list.transcriptions.map((t: { source: string }) => t.source).sort()).toEqual(["upload", "youtube"]);

  const unknownSlug = await runCli(["unpublish", "no-such-transcript-zz9"], env);
  expect(unknownSlug.code).toBe(5);
  expect(unknownSlug.stderr.trim().split("\n")).toHaveLength(1);

  // 17 minutes of silence: more than the free tier's 15 a month. The job measures it and stops.
  const long = path.join(await filesDir(testInfo), "long-silence.mp3");
  execFileSync(findExecutable("ffmpeg") ?? "ffmpeg", [
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    "anullsrc=r=8000:cl=mono",
    "-t",
    "1020",
    "-c:a",
    "libmp3lame",
    "-b:a",
    "8k",
    long,
  ]);
  const tooLong = await runCli(["get", long], env);
  expect(tooLong.code, tooLong.stderr).toBe(4);
  expect(tooLong.stdout).toBe("");
  expect(tooLong.stderr).toMatch(/^error: Job [\w-]+ failed: .*allowance/m);

  const out = await runCli(["logout"], env);
  expect(out.code, out.stderr).toBe(0);
  expect(out.stderr).toContain(`Logged out of ${baseURL}`);
  const after = await runCli(["history"], env);
  expect(after.code).toBe(3);
  expect(after.stderr).toMatch(/Not logged in .*verbatim login/);
});
