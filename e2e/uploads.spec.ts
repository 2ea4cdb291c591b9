import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { expect, type Page, type TestInfo } from "@playwright/test";

import { test } from "./fixtures";
import { devLogin, randomEmail } from "./helpers";
import { validateSrt } from "../test/formats/srt-validator";
import { FAKE_IDS } from "../test/fakes/youtube/ids";
import { speechWav as writeSpeech } from "../test/speech";

// The app under test sends speech recognition to the OpenAI-compatible fake (playwright.config.ts starts
// it), which hears every upload as "Welcome to Verbatim." and, two seconds later, "This audio was
// uploaded from the dashboard." (each answer held back a second, so the job is seen running).
const FIRST_SENTENCE = "Welcome to Verbatim.";
const SECOND_SENTENCE = "This audio was uploaded from the dashboard.";

/** A real WAV of the same words, spoken by espeak-ng (the fake does not listen, the app's ffmpeg does). */
async function speechWav(testInfo: TestInfo, name: string): Promise<string> {
  const dir = testInfo.outputPath("files");
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, name);
  return writeSpeech(file, `<speak>${FIRST_SENTENCE}<break time="2s"/>${SECOND_SENTENCE}</speak>`, { ssml: true });
}

async function chooseFile(page: Page, file: string) {
  await page.getByRole("tab", { name: "File" }).click();
  await expect(page.getByRole("button", { name: "Choose file" })).toBeVisible();
  await page.getByLabel("Audio or video file").setInputFiles(file);
  await expect(page.getByTestId("upload-file-name")).toHaveText(path.basename(file));
}

test("upload an audio file, watch the job, download the transcript as SRT, find it in the history", async ({
  page,
}, testInfo) => {
  const wav = await speechWav(testInfo, "welcome.wav");
  await devLogin(page, randomEmail("upload"));

  // The PUT is held until the upload's progress bar has been seen, so it is seen before the upload completes.
  let puts = 0;
  let releasePut: () => void = () => undefined;
  const putHeld = new Promise<void>((resolve) => (releasePut = resolve));
  await page.route(
    (url) => url.pathname.startsWith("/uploads/"),
    async (route) => {
      if (route.request().method() !== "PUT") return route.fallback();
      puts++;
      await putHeld;
      return route.fallback();
    },
  );

  await chooseFile(page, wav);
  await expect(page.getByTestId("upload-file-size")).toHaveText(/^\d+(\.\d)? KB/);
  await expect(page.getByLabel("Language")).toHaveValue("en");
  await page.getByRole("button", { name: "Transcribe" }).click();

  const uploadBar = page.getByRole("progressbar", { name: "Upload progress" });
  await expect(uploadBar).toBeVisible();
  await expect(uploadBar).toHaveAttribute("aria-valuenow", /^\d{1,3}$/);
  await expect(page.getByTestId("upload-panel")).toContainText("welcome.wav");
  releasePut();

  // 202: the job panel, with the job in the address.
  const jobPanel = page.getByTestId("job-panel");
  await expect(jobPanel).toBeVisible();
  await expect(jobPanel.getByRole("heading")).toHaveText(/^(Transcribing|Transcribed) welcome\.wav$/);
  await expect(page).toHaveURL(/\/dashboard\?job=[\w-]+$/);
  const jobId = new URL(page.url()).searchParams.get("job")!;
  // The job is the user's file, not an id.
  await expect(jobPanel).not.toContainText(jobId);
  const jobBar = jobPanel.getByRole("progressbar", { name: "Transcription progress" });
  await expect(jobBar).toBeVisible();
  await expect(jobPanel.getByTestId("job-status")).toHaveText(/^(Queued|Running|Done)$/);
  await expect(page.getByTestId("upload-panel")).toHaveCount(0);
  expect(puts).toBe(1);

  // Done: the bar is full and the transcript is shown below.
  await expect(jobPanel.getByTestId("job-status")).toHaveText("Done", { timeout: 30_000 });
  await expect(jobBar).toHaveAttribute("aria-valuenow", "100");
  await expect(jobPanel.getByRole("heading")).toHaveText("Transcribed welcome.wav");
  const viewer = page.getByTestId("transcript-viewer");
  await expect(viewer).toBeVisible();
  await expect(page.getByTestId("transcript-title")).toHaveText("welcome.wav");
  await expect(page.getByTestId("transcript-platform")).toHaveText("Upload");
  await expect(page.getByTestId("transcript-caption-kind")).toHaveText("Speech recognition");
  await expect(page.getByTestId("transcript-source")).toHaveText("Uploaded file");
  await expect(page.getByTestId("transcript-duration")).toHaveText(/^[5-7] s$/);
  await expect(page.getByTestId("transcript-player")).toHaveCount(0);
  // The reading view: one span per cue inside its paragraph.
  const lines = page.getByTestId("reading-view").locator("p > span[id]");
  await expect(lines).toHaveText([FIRST_SENTENCE, SECOND_SENTENCE]);

  // SRT: fetched as its own format, then downloaded and checked strictly.
  await page.getByRole("tab", { name: "SRT" }).click();
  const srtPanel = page.getByRole("tabpanel", { name: "SRT" });
  await expect(srtPanel.getByTestId("transcript-content")).toContainText("-->");
  await expect(srtPanel).toContainText(FIRST_SENTENCE);
  const downloadLink = page.getByRole("link", { name: "Download .srt" });
  await expect(downloadLink).toHaveAttribute("href", /\/v1\/transcripts\/[^/]+\/download\?format=srt$/);
  const [download] = await Promise.all([page.waitForEvent("download"), downloadLink.click()]);
  expect(download.suggestedFilename()).toBe("welcome.wav (en).srt");
  const srt = await readFile((await download.path())!, "utf8");
  expect(validateSrt(srt)).toEqual([]);
  const cues = srt
    .trimEnd()
    .split("\n\n")
    .map((block) => block.split("\n"));
  expect(cues).toHaveLength(2);
  cues.forEach(([index, timing, ...text], i) => {
    expect(index).toBe(String(i + 1));
    const match = /^(\d{2}):(\d{2}):(\d{2}),(\d{3}) --> (\d{2}):(\d{2}):(\d{2}),(\d{3})$/.exec(timing);
    expect(match, timing).not.toBeNull();
    const ms = (h: string, m: string, s: string, f: string) =>
      ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000 + Number(f);
    expect(ms(match![1], match![2], match![3], match![4])).toBeLessThanOrEqual(
      ms(match![5], match![6], match![7], match![8]),
    );
    expect(text.join(" ").trim()).not.toBe("");
  });
  expect(cues[0].slice(2).join(" ")).toBe(FIRST_SENTENCE);
  expect(cues[1].slice(2).join(" ")).toBe(SECOND_SENTENCE);

  // A reload resumes the job from the address: finished, so the transcript again.
  await page.reload();
  await expect(page.getByTestId("job-panel").getByTestId("job-status")).toHaveText("Done");
  await expect(lines.first()).toHaveText(FIRST_SENTENCE);

  // History: the upload is done; its id opens the job (and so the transcript) again.
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "History" }).click();
  const row = page.getByTestId("history-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Upload");
  await expect(row.getByTestId("history-state-badge")).toHaveText("done");

  // Its Publish button puts it on a public page under the file's name, never its storage path.
  await row.getByTestId("publish-button").click();
  const published = row.getByTestId("published-link").getByRole("link", { name: "Public page" });
  await expect(published).toHaveAttribute("href", /\/t\/welcome-wav-[a-z0-9]+$/);
  const slug = (await published.getAttribute("href"))!.split("/t/")[1];
  const publicTranscript = await page.request.get(`/v1/public/${slug}`);
  expect(publicTranscript.status()).toBe(200);
  expect(await publicTranscript.json()).toMatchObject({
    title: "welcome.wav",
    platform: "upload",
    source_url: null,
    video_id: null,
  });
  expect(await publicTranscript.text()).not.toContain("uploads/");

  await row.getByTestId("history-video-link").click();
  await expect(page).toHaveURL(/\/dashboard\?transcript=[^&]+$/);
  await expect(lines.first()).toHaveText(FIRST_SENTENCE);
});

test("a file that is not audio or video is refused with the reason", async ({ page }, testInfo) => {
  const dir = testInfo.outputPath("files");
  await mkdir(dir, { recursive: true });
  // Text with an audio extension: the browser may call it audio/wav (then the store's PUT refuses it by
  // its first bytes, 415) or text/plain (then signing refuses the type, 415). Either way, a clear message.
  const notAudio = path.join(dir, "meeting-notes.wav");
  await writeFile(notAudio, "Meeting notes: these are words in a text file, not a recording.\n".repeat(40));
  await devLogin(page, randomEmail("upload-refused"));

  const refusals: number[] = [];
  page.on("response", (response) => {
    if (/\/uploads\//.test(response.url()) && response.status() >= 400) refusals.push(response.status());
  });
  await chooseFile(page, notAudio);
  await page.getByRole("button", { name: "Transcribe" }).click();

  const error = page.getByTestId("transcribe-error");
  await expect(error).toBeVisible();
  await expect(error).toHaveText(
    /^This file cannot be uploaded: (The file is not a recognised audio or video file|'text\/plain' is not an accepted upload type)/,
  );
  expect(refusals).toEqual([415]);
  await expect(page.getByTestId("job-panel")).toHaveCount(0);
  await expect(page.getByTestId("transcript-viewer")).toHaveCount(0);
  await expect(page).toHaveURL(/\/dashboard$/);
  // The file stays chosen (to pick another one, or try again), and the form is usable again.
  await expect(page.getByTestId("upload-file-name")).toHaveText("meeting-notes.wav");
  await expect(page.getByRole("button", { name: "Transcribe" })).toBeEnabled();

  // Transcribe without a file asks for one.
  await page.getByRole("button", { name: "Remove" }).click();
  await page.getByRole("button", { name: "Transcribe" }).click();
  await expect(error).toHaveText("Choose an audio or video file first.");
});

test("a file the server cannot read fails as a job; history says so and why", async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const dir = testInfo.outputPath("files");
  await mkdir(dir, { recursive: true });
  // WAV magic bytes (so the upload is accepted) in front of noise ffprobe cannot make sense of.
  const broken = path.join(dir, "broken.wav");
  const header = Buffer.from("RIFF\u0000\u0010\u0000\u0000WAVEjunk", "latin1");
  await writeFile(broken, Buffer.concat([header, Buffer.alloc(4096, 0x5a)]));
  await devLogin(page, randomEmail("upload-broken"));

  await chooseFile(page, broken);
  await page.getByRole("button", { name: "Transcribe" }).click();
  const jobPanel = page.getByTestId("job-panel");
  await expect(jobPanel).toBeVisible();
  await expect(jobPanel.getByTestId("job-status")).toHaveText("Failed", { timeout: 60_000 });
  await expect(jobPanel.getByRole("heading")).toHaveText("Could not transcribe broken.wav");
  const jobError = jobPanel.getByTestId("job-error");
  await expect(jobError).toHaveText(/^Failed: \S/);
  const message = (await jobError.textContent())!.replace(/^Failed: /, "");
  await expect(page.getByTestId("transcript-viewer")).toHaveCount(0);

  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "History" }).click();
  const row = page.getByTestId("history-row");
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId("history-state-badge")).toHaveText("failed");
  await expect(row.getByTestId("history-video-link")).toHaveCount(0);
  // The reason is on the row itself, no click needed.
  await expect(row.getByTestId("history-failure-reason")).toHaveText(message);
});

test("history: a running job shows as in progress, with a link to watch it", async ({ page }) => {
  await devLogin(page, randomEmail("history-running"), "/dashboard/history");
  // A job that is still running cannot be held in that state on the real server, so this list is made up.
  const now = new Date().toISOString();
  const entry = {
    video_id: "AbCdEfGhIjKlMnOpQrStUv",
    lang: "en",
    source: "upload",
    duration_seconds: 0,
    total_seconds: 0,
    created_at: now,
    source_url: null,
  };
  await page.route(
    (url) => url.pathname === "/v1/me/transcriptions",
    (route) =>
      route.fulfill({
        json: {
          transcriptions: [{ ...entry, id: "t1", complete: false, job_id: "job-running-1", status: "in_progress" }],
          total: 1,
          limit: 20,
          offset: 0,
        },
      }),
  );
  await page.route(
    (url) => url.pathname === "/v1/jobs/job-running-1",
    (route) =>
      route.fulfill({
        json: {
          job_id: "job-running-1",
          status: "running",
          stage: "recognising speech",
          progress: 0.6,
          created_at: now,
          updated_at: now,
          error: null,
          transcript: null,
        },
      }),
  );
  await page.reload();
  const row = page.getByTestId("history-row");
  await expect(row.getByTestId("history-state-badge")).toHaveText("in progress");
  await row.getByRole("link", { name: "Watch" }).click();
  await expect(page).toHaveURL(/\/dashboard\?job=job-running-1$/);
  const jobPanel = page.getByTestId("job-panel");
  await expect(jobPanel.getByTestId("job-status")).toHaveText("Running");
  await expect(jobPanel.getByTestId("job-stage")).toHaveText("Recognising speech…");
  await expect(jobPanel.getByRole("progressbar", { name: "Transcription progress" })).toHaveAttribute(
    "aria-valuenow",
    "60",
  );
});

test("a link without captions is queued as a job too; the address keeps watching it", async ({ page }) => {
  await devLogin(page, randomEmail("link-job"));
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === "/v1/transcript")
      posts.push(request.postData() ?? "");
  });
  const watchUrl = `https://www.youtube.com/watch?v=${FAKE_IDS.noCaptions}`;
  await page.getByLabel("Video or audio link").fill(watchUrl);
  await page.getByRole("button", { name: "Transcribe" }).click();
  // Speech recognition uses the allowance: asked first.
  await page.getByTestId("confirm-recognition").click();

  const jobPanel = page.getByTestId("job-panel");
  await expect(jobPanel).toBeVisible();
  await expect(jobPanel.getByRole("heading")).toHaveText("Speech recognition");
  await expect(jobPanel.getByTestId("job-status")).toHaveText(/^(Queued|Running|Done|Failed)$/);
  await expect(page.getByTestId("transcribe-queued")).toHaveCount(0);
  await expect(page).toHaveURL(/\/dashboard\?url=[^&]+&lang=en&job=[\w-]+$/);
  const jobId = new URL(page.url()).searchParams.get("job")!;
  expect(posts).toHaveLength(1);
  expect(JSON.parse(posts[0])).toMatchObject({ url: watchUrl, lang: "en" });

  // A reload watches the same job instead of asking again; the form still shows the link.
  await page.reload();
  await expect(page.getByLabel("Video or audio link")).toHaveValue(watchUrl);
  await expect(page).toHaveURL(new RegExp(`job=${jobId}$`));
  await expect(page.getByTestId("job-panel").getByTestId("job-status")).toBeVisible();
  expect(posts).toHaveLength(1);
});

test("a file dragged onto the form is taken; an upload can be cancelled", async ({ page }, testInfo) => {
  const wav = await speechWav(testInfo, "dropped.wav");
  const bytes = [...(await readFile(wav))];
  await devLogin(page, randomEmail("upload-drop"));

  // A drag carrying a file switches the form to its file tab; dropping it there chooses it.
  const drag = await page.evaluateHandle((content) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([new Uint8Array(content)], "dropped.wav", { type: "audio/wav" }));
    return transfer;
  }, bytes);
  await page.getByLabel("Video or audio link").dispatchEvent("dragenter", { dataTransfer: drag });
  await expect(page.getByRole("tab", { name: "File" })).toHaveAttribute("aria-selected", "true");
  await page.getByTestId("upload-dropzone").dispatchEvent("dragover", { dataTransfer: drag });
  await expect(page.getByTestId("upload-dropzone")).toHaveAttribute("data-dragover", "true");
  await page.getByTestId("upload-dropzone").dispatchEvent("drop", { dataTransfer: drag });
  await expect(page.getByTestId("upload-file-name")).toHaveText("dropped.wav");
  await expect(page.getByTestId("upload-file-size")).toHaveText(/KB · audio\/wav$/);

  // The PUT is held until the upload is cancelled: nothing is transcribed, the form is free again.
  let releaseCancelled: () => void = () => undefined;
  const cancelled = new Promise<void>((resolve) => (releaseCancelled = resolve));
  await page.route(
    (url) => url.pathname.startsWith("/uploads/"),
    async (route) => {
      if (route.request().method() !== "PUT") return route.fallback();
      await cancelled;
      await route.fallback().catch(() => undefined);
    },
  );
  await page.getByRole("button", { name: "Transcribe" }).click();
  await expect(page.getByRole("progressbar", { name: "Upload progress" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Uploading…" })).toBeDisabled();
  await page.getByRole("button", { name: "Cancel upload" }).click();
  await expect(page.getByTestId("upload-cancelled")).toHaveText("Upload cancelled.");
  await expect(page.getByTestId("upload-panel")).toHaveCount(0);
  await expect(page.getByTestId("transcribe-error")).toHaveCount(0);
  await expect(page.getByTestId("job-panel")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Transcribe" })).toBeEnabled();
  await expect(page.getByTestId("upload-file-name")).toHaveText("dropped.wav");
  releaseCancelled();
  await page.unrouteAll({ behavior: "ignoreErrors" });
});
