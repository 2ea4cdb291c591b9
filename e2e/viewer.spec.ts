import { spawn, type ChildProcess } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { expect, type Page, type TestInfo } from "@playwright/test";

import { hydrating, test } from "./fixtures";
import { axeScan, devLogin, randomEmail } from "./helpers";
import { FAKE_IDS } from "../test/fakes/youtube/ids";
import { speech, speechWav as writeSpeech } from "../test/speech";

// The Transcribe page and transcript viewer in Chromium. The main app (playwright.config.ts) has
// speech recognition (the OpenAI-compatible fake, which hears every upload as the two sentences below)
// and the YouTube fake. A second app started here has no speech recognition and a YouTube it cannot
// reach, as a fresh install behind a blocked network would.

const FIRST_SENTENCE = "Welcome to Verbatim.";
const SECOND_SENTENCE = "This audio was uploaded from the dashboard.";

/** The bundled media: espeak-ng speaking the fake recogniser's two sentences (≈5.7 s), made per run. */
async function speechWav(testInfo: TestInfo): Promise<string> {
  const dir = testInfo.outputPath("files");
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, "welcome.wav");
  return writeSpeech(file, `<speak>${FIRST_SENTENCE}<break time="2s"/>${SECOND_SENTENCE}</speak>`, { ssml: true });
}

async function uploadAndWait(page: Page, file: string) {
  await page.getByRole("tab", { name: "File" }).click();
  await page.getByLabel("Audio or video file").setInputFiles(file);
  await page.getByRole("button", { name: "Transcribe" }).click();
  await expect(page.getByTestId("job-status")).toHaveText("Done", { timeout: 30_000 });
  // The reading view: the two sentences, 2 s apart, are two paragraphs of one cue each.
  await expect(page.getByTestId("paragraph")).toHaveCount(2);
  await expect(page.locator(".reading p > span[id]")).toHaveText([FIRST_SENTENCE, SECOND_SENTENCE]);
}

/** The embedded YouTube player, replaced by a page that reports a playback position like the IFrame API does. */
async function stubYouTube(page: Page) {
  await page.route("https://www.youtube-nocookie.com/embed/**", (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><title>player</title><p>player</p><script>
        addEventListener("message", (event) => {
          const message = JSON.parse(event.data);
          if (message.event === "listening") parent.postMessage(JSON.stringify({ event: "infoDelivery", info: { currentTime: 12.4 } }), "*");
        });</script>`,
    }),
  );
}

async function expectNoHorizontalOverflow(page: Page) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, `page is ${scrollWidth - clientWidth}px too wide at ${clientWidth}px`).toBeLessThanOrEqual(
    clientWidth,
  );
}

async function expectNoSeriousA11yViolations(page: Page) {
  // The third-party player frame is not ours to scan.
  const results = await axeScan(page).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

test("an upload: the line being played is highlighted as its own file plays; search, copy and downloads", async ({
  page,
  context,
}, testInfo) => {
  test.setTimeout(90_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const wav = await speechWav(testInfo);
  await devLogin(page, randomEmail("viewer-upload"));
  await uploadAndWait(page, wav);

  // The upload is played from its own file (GET /v1/transcripts/{id}/media), not an embed.
  const audio = page.getByTestId("transcript-audio");
  await expect(audio).toHaveAttribute("src", /^\/v1\/transcripts\/[^/]+\/media$/);
  await expect.poll(() => audio.evaluate((element: HTMLAudioElement) => element.duration)).toBeGreaterThan(5);

  // Playing from the first paragraph: its cue is current, then, as playback reaches 3.2 s, the second.
  // The speech fake times each word (as OpenAI's verbose_json does), so the word being played is marked in its line.
  const lines = page.locator(".reading p > span[id]");
  const playingIn = (line: number) => lines.nth(line).locator('[aria-current="true"]');
  await page.getByRole("link", { name: "Play from 0:00" }).click();
  await expect(playingIn(0)).toHaveCount(1);
  await expect(playingIn(1)).toHaveCount(1, { timeout: 15_000 });
  await expect(playingIn(0)).toHaveCount(0);
  expect(await audio.evaluate((element: HTMLAudioElement) => element.currentTime)).toBeGreaterThan(2.9);
  // Auto-scroll can be paused.
  await expect(page.getByTestId("follow-toggle")).toHaveAttribute("aria-pressed", "true");
  await page.getByTestId("follow-toggle").click();
  await expect(page.getByTestId("follow-toggle")).toHaveAttribute("aria-pressed", "false");
  await audio.evaluate((element: HTMLAudioElement) => element.pause());

  // Search: every occurrence counted, next and previous wrap around.
  const search = page.getByRole("searchbox", { name: "Search this transcript" });
  const count = page.getByTestId("search-count");
  await search.fill("the");
  await expect(count).toHaveText("1 of 1");
  await search.fill("o");
  const total = (FIRST_SENTENCE + SECOND_SENTENCE).split("o").length - 1;
  await expect(count).toHaveText(`1 of ${total}`);
  await expect(page.locator("mark")).toHaveCount(total);
  await page.getByRole("button", { name: "Next match" }).click();
  await expect(count).toHaveText(`2 of ${total}`);
  await search.press("Enter");
  await expect(count).toHaveText(`3 of ${total}`);
  await page.getByRole("button", { name: "Previous match" }).click();
  await page.getByRole("button", { name: "Previous match" }).click();
  await page.getByRole("button", { name: "Previous match" }).click();
  await expect(count).toHaveText(`${total} of ${total}`);
  await expect(page.locator("mark[data-current]")).toHaveCount(1);
  await search.fill("zebra");
  await expect(count).toHaveText("No matches");
  await expect(page.getByRole("button", { name: "Next match" })).toBeDisabled();
  await search.fill("");

  // Copy on the default view: readable text (paragraphs split at the 2 s pause), then with timestamps.
  await page.getByRole("button", { name: "Copy text" }).click();
  await expect(page.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${FIRST_SENTENCE}\n\n${SECOND_SENTENCE}\n`);
  await page.getByRole("checkbox", { name: "Timestamps" }).check();
  await page.getByRole("button", { name: /^(Copy text|Copied)$/ }).click();
  await expect
    .poll(() => page.evaluate(() => navigator.clipboard.readText()))
    .toBe(`[00:00] ${FIRST_SENTENCE}\n\n[00:03] ${SECOND_SENTENCE}\n`);

  // Downloads: .txt is the first (and primary) one, then .srt; the rest one click away.
  const downloads = page.getByTestId("transcript-downloads").getByRole("link");
  await expect(downloads.first()).toHaveText("Download .txt");
  await expect(downloads.nth(1)).toHaveText("Download .srt");
  const [txt] = await Promise.all([page.waitForEvent("download"), downloads.first().click()]);
  expect(txt.suggestedFilename()).toBe("welcome.wav (en).txt");
  expect(await readFile((await txt.path())!, "utf8")).toBe(`${FIRST_SENTENCE}\n\n${SECOND_SENTENCE}\n`);
  await page.getByText("Other formats").click();
  await expect(page.getByRole("link", { name: "Download .vtt" })).toBeVisible();
});

test("a YouTube transcript: side by side on a wide screen, stacked with a sticky player on a phone; chapters; the reported time highlighted", async ({
  page,
}) => {
  await stubYouTube(page);
  await page.setViewportSize({ width: 1366, height: 900 });
  await devLogin(page, randomEmail("viewer-youtube"));
  await page.getByLabel("Video or audio link").fill(`https://www.youtube.com/watch?v=${FAKE_IDS.captioned}`);
  await page.getByRole("button", { name: "Transcribe" }).click();
  await expect(page.getByTestId("paragraph").first()).toBeVisible();

  // The fake's chapters, in order, each before the first line at or after its start.
  await expect(page.getByTestId("chapter")).toHaveText([/^Intro/, /^Yeast/, /^Gluten/, /^Proofing/, /^Baking/]);
  // The stub player reported 12.4 s: the line playing then is the current one.
  const current = page.locator(".reading [aria-current=true]");
  await expect(current).toHaveCount(1);
  const start = Number(/^t(\d+)-/.exec((await current.getAttribute("id")) ?? "")?.[1]);
  expect(start).toBeLessThanOrEqual(12);

  const player = page.getByTestId("player-pane");
  const list = page.getByTestId("reading-view");
  const [p, l] = [await player.boundingBox(), await list.boundingBox()];
  expect(p!.x + p!.width).toBeLessThanOrEqual(l!.x); // beside
  await expectNoHorizontalOverflow(page);
  await expectNoSeriousA11yViolations(page);

  await page.setViewportSize({ width: 390, height: 844 });
  const [p2, l2] = [await player.boundingBox(), await list.boundingBox()];
  expect(p2!.y + p2!.height).toBeLessThanOrEqual(l2!.y); // above
  expect(p2!.height).toBeLessThan(844 * 0.35); // compact
  await expectNoHorizontalOverflow(page);
  // Scrolled into the text, the player stays at the top.
  await list.getByTestId("paragraph").last().scrollIntoViewIfNeeded();
  await expect.poll(async () => (await player.boundingBox())!.y).toBeLessThanOrEqual(1);

  // The same transcript from the history's link (/dashboard?transcript=<id>), on a phone.
  const id = (await page.getByTestId("download-txt").getAttribute("href"))!.split("/")[3];
  await page.goto(`/dashboard?transcript=${id}`);
  await expect(page.getByTestId("transcript-title")).toBeVisible();
  await expect(page.getByTestId("chapter")).toHaveCount(5);
  await expectNoHorizontalOverflow(page);
  await expectNoSeriousA11yViolations(page);
});

test("files that are not audio or video are refused before anything is uploaded; a new file clears the error", async ({
  page,
}, testInfo) => {
  const signs: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/v1/uploads/sign")) signs.push(request.url());
  });
  await devLogin(page, randomEmail("viewer-txt"));
  await page.getByRole("tab", { name: "File" }).click();
  await page.getByLabel("Audio or video file").setInputFiles({
    name: "notes.txt",
    mimeType: "text/plain",
    buffer: Buffer.from("Meeting notes, not a recording.\n"),
  });
  await expect(page.getByTestId("transcribe-error")).toHaveText(/^“notes\.txt” is not an audio or video file\./);
  await expect(page.getByTestId("upload-file-name")).toHaveCount(0);
  await page.getByRole("button", { name: "Transcribe" }).click();
  await expect(page.getByTestId("transcribe-error")).toHaveText("Choose an audio or video file first.");
  expect(signs).toEqual([]);

  await page.getByLabel("Audio or video file").setInputFiles(await speechWav(testInfo));
  await expect(page.getByTestId("transcribe-error")).toHaveCount(0);
  await expect(page.getByTestId("upload-file-name")).toHaveText("welcome.wav");
});

test("the empty Transcribe page on the main app: everything available, no overflow, accessible", async ({ page }) => {
  await devLogin(page, randomEmail("viewer-first-run"));
  const firstRun = page.getByTestId("first-run");
  await expect(firstRun.getByTestId("can-captions")).toHaveAttribute("data-available", "true");
  // "checking" until the first round of setup checks after the start has ended (the page asks again meanwhile).
  await expect(firstRun.getByTestId("can-asr")).toHaveAttribute("data-available", "true", { timeout: 30_000 });
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoHorizontalOverflow(page);
  }
  await expectNoSeriousA11yViolations(page);

  // YouTube answers here (the fake): the sample link is offered, fills the form and asks for it.
  await page.getByTestId("try-sample").click();
  await expect(page.getByLabel("Video or audio link")).toHaveValue("https://www.youtube.com/watch?v=H14bBuluwB8");
  await expect(page).toHaveURL(/\?url=https%3A%2F%2Fwww\.youtube\.com%2Fwatch%3Fv%3DH14bBuluwB8&lang=en/);
});

test.describe("a server without speech recognition that cannot reach YouTube", () => {
  const port = Number(process.env.E2E_PORT ?? 3123) + 5;
  const origin = `http://127.0.0.1:${port}`;
  let app: ChildProcess;
  let dataDir: string;
  let log = "";

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    dataDir = await mkdtemp(path.join(os.tmpdir(), "verbatim-e2e-noasr-"));
    app = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NEXT_TELEMETRY_DISABLED: "1",
        DATA_DIR: dataDir,
        APP_URL: origin,
        // Nothing listens on port 9 (discard): every InnerTube call is refused, yt-dlp finds no YouTube either.
        YOUTUBE_BASE_URL: "http://127.0.0.1:9",
        OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
        YOUTUBE_LOOKUP_TIMEOUT_SECONDS: "10",
        ASR_PROVIDER: "off",
      } as unknown as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    app.stdout!.on("data", (chunk) => (log += chunk));
    app.stderr!.on("data", (chunk) => (log += chunk));
    for (let attempt = 0; attempt < 400; attempt++) {
      const ok = await fetch(`${origin}/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`the app without speech recognition did not start:\n${log}`);
  });

  test.afterAll(async () => {
    if (app && app.exitCode === null) {
      const exited = new Promise((resolve) => app.once("exit", resolve));
      app.kill("SIGTERM");
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  test("says up front what works here, blames the platform not the link, and shows the API's own sentence for a word", async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await page.goto(`${origin}/dashboard`);
    await page.getByLabel(/development login/i).fill(randomEmail("viewer-noasr"));
    await page.getByRole("button", { name: "Sign in (development)" }).click();

    // First run, as the operator (the first user of this embedded server): YouTube links no (nothing answers at
    // YOUTUBE_BASE_URL), so the captions line does not claim YouTube and no YouTube sample is offered; files no; the
    // failing check with its cause and fix.
    const firstRun = page.getByTestId("first-run");
    await expect(firstRun.getByTestId("can-captions")).not.toHaveAttribute("data-available", "checking");
    await expect(firstRun.getByTestId("can-captions")).not.toContainText("YouTube");
    await expect(firstRun.getByTestId("can-asr")).toHaveAttribute("data-available", "false");
    await expect(firstRun.getByTestId("can-asr")).toContainText("Not on this server");
    await expect(firstRun.getByTestId("try-sample")).toHaveCount(0);
    await expect(firstRun.locator('[data-testid="setup-problem"][data-check="youtube"]')).toContainText(
      "127.0.0.1: connection refused",
    );
    for (const width of [390, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      await expectNoHorizontalOverflow(page);
    }
    await expectNoSeriousA11yViolations(page);

    // The File tab says so before anything is chosen: no picker, no upload, Transcribe off.
    await page.getByRole("tab", { name: "File" }).click();
    await expect(page.getByTestId("asr-off")).toContainText("Transcribing files is not available on this server.");
    await expect(page.getByLabel("Audio or video file")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Transcribe" })).toBeDisabled();
    await expectNoSeriousA11yViolations(page);
    // The API, asked anyway, says so in the user's words; the settings that turn it on are for the operator's log.
    const signed = await page.request.post(`${origin}/v1/uploads/sign`, {
      data: { filename: "a.wav", content_type: "audio/wav" },
      headers: { origin },
    });
    const { upload_url, object_path } = (await signed.json()) as { upload_url: string; object_path: string };
    await page.request.put(upload_url, { data: await speech("Hello."), headers: { "content-type": "audio/wav" } });
    const off = await page.request.post(`${origin}/v1/transcript`, {
      data: { upload: object_path },
      headers: { origin },
    });
    expect(off.status()).toBe(503);
    const refused = (await off.json()) as { code: string; detail: string };
    expect(refused).toMatchObject({
      code: "asr_not_configured",
      detail: "This source needs speech recognition, which this server does not offer.",
    });
    await expect.poll(() => log).toMatch(/asr_not_configured.*ASSEMBLYAI_API_KEY/);

    // A bare word: the API's sentence, without "url:" or "Value error".
    await page.getByRole("tab", { name: "Link" }).click();
    const link = page.getByLabel("Video or audio link");
    await link.fill("hello");
    await page.getByRole("button", { name: "Transcribe" }).click();
    const error = page.getByTestId("transcribe-error");
    await expect(error).toHaveText(/^This is not a link\. Paste the address of a video/);
    await expect(error).not.toContainText("Value error");
    await expect(error).not.toContainText("url:");
    await expect(page.getByTestId("transcribe-retry")).toHaveCount(0);

    // Typing a new link clears it.
    await link.fill("https://www.youtube.com/watch?v=");
    await expect(error).toHaveCount(0);

    // YouTube unreachable from the server (nothing listens at YOUTUBE_BASE_URL): the cause and what fixes it,
    // and no "try again in a moment" or retry button, since asking again cannot help
    // (docs/decisions/0009-failures-name-their-cause-and-fix.md).
    await link.fill(`https://www.youtube.com/watch?v=${FAKE_IDS.captioned}`);
    await page.getByRole("button", { name: "Transcribe" }).click();
    await expect(page.getByTestId("transcribe-error-message")).toHaveText(
      "YouTube refused this server's connection: a firewall rejects it. Its operator can route YouTube through a proxy (YOUTUBE_PROXIES).",
      { timeout: 30_000 },
    );
    await expect(page.getByTestId("transcribe-retry")).toHaveCount(0);

    // Someone else on the same server: the same truths, without the server's setup.
    const other = hydrating(await page.context().browser()!.newPage());
    try {
      await other.goto(`${origin}/dashboard`);
      await other.getByLabel(/development login/i).fill(randomEmail("viewer-noasr-user"));
      await other.getByRole("button", { name: "Sign in (development)" }).click();
      const theirs = other.getByTestId("first-run");
      await expect(theirs.getByTestId("can-captions")).not.toContainText("YouTube");
      await expect(theirs.getByTestId("can-asr")).toContainText("Not on this server");
      await expect(theirs.getByTestId("setup-problem")).toHaveCount(0);
      await expect(theirs).not.toContainText("127.0.0.1");
      await expect(theirs.getByTestId("try-sample")).toHaveCount(0);
    } finally {
      await other.close();
    }
  });
});
