// The side panel (Chromium) or sidebar (Firefox): sign-in, the library search, and the transcript of the page
// beside it. Every request goes to the person's own Verbatim with the extension's token (api.ts).
import { api, apiJson, ApiError, errorOf, serverOf, SignedOut } from "./api";
import { signIn, signOut } from "./auth";
import { shownLines, type Line } from "./lib/lines";
import { transcriptSource, youtubeVideoId, type PlayerState } from "./lib/messages";
import { clock, momentLink, quoteText } from "./lib/quote";
import { loadSession } from "./session";
import { Player } from "./player";
import { TranscriptView } from "./transcript-view";
import { ShowAlerts } from "./show-alerts";

interface Transcript {
  id: string;
  platform: string;
  video_id: string;
  source_url: string;
  title: string | null;
  channel?: string | null;
  lang: string;
  segments: Line[] | null;
}
interface Job {
  job_id: string;
  status: "queued" | "running" | "done" | "error";
  stage?: string | null;
  progress?: number;
  error?: { message: string } | null;
  transcript?: Transcript | null;
}
interface Me {
  email: string | null;
  name: string | null;
  workspace?: { kind?: string; name?: string | null } | null;
}
interface SearchAnswer {
  results: {
    title: string | null;
    start: number;
    snippet: string;
    links: { viewer: string | null; page: string | null };
  }[];
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const say = (id: string, text: string) => void ($(id).textContent = text);
const POLL_MS = 2000;

let transcript: Transcript | null = null;
/** Which page's source the shown transcript is of: a new video (YouTube's own navigation) starts afresh. */
let shownFor: string | null = null;
let loading = false;

const view = new TranscriptView((seconds) => player.seek(seconds));
const player = new Player(onPlayer);
const showAlerts = new ShowAlerts((text) => say("transcript-status", text), message);

function message(error: unknown): string {
  if (error instanceof ApiError || error instanceof SignedOut) return error.message;
  return error instanceof Error && error.message
    ? `Could not reach Verbatim: ${error.message}`
    : "Something went wrong.";
}

function sourceKey(state: PlayerState | null): string | null {
  const source = state ? transcriptSource(state) : null;
  return source ? ("url" in source ? source.url : source.audio) : null;
}

function onPlayer(state: PlayerState | null) {
  const key = sourceKey(state);
  if (transcript && key !== shownFor) {
    transcript = null;
    shownFor = null;
    $("transcript").hidden = true;
    showAlerts.hide();
  }
  if (transcript && state) view.follow(state.time);
  if (!loading) {
    say(
      "page-status",
      !state
        ? "Open a video or an episode, or ask for this page's."
        : youtubeVideoId(state.url)
          ? "A YouTube video."
          : state.player
            ? "A page with audio or video."
            : "No audio or video on this page.",
    );
  }
}

async function refreshWho() {
  const session = await loadSession();
  $("sign-in").hidden = session !== null;
  $("signed-in").hidden = session === null;
  $("sign-out").hidden = session === null;
  if (!session) {
    say("who", "Not signed in.");
    return;
  }
  say("who", `Signed in to ${session.server}`);
  try {
    const { body } = await apiJson<Me>("/v1/me");
    const workspace = body.workspace?.kind === "team" && body.workspace.name ? ` (team ${body.workspace.name})` : "";
    say("who", `Signed in as ${body.email ?? body.name ?? "you"}${workspace} at ${new URL(session.server).host}`);
  } catch (error) {
    if (error instanceof SignedOut) return refreshWho();
    say("who", message(error));
  }
}

async function request(source: { url: string } | { audio: string }): Promise<Transcript> {
  const { status, body } = await apiJson<Transcript | Job>("/v1/transcript", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ...source, format: "json" }),
  });
  if (status !== 202) return body as Transcript;
  let job = body as Job;
  for (;;) {
    if (job.status === "done" && job.transcript) return job.transcript;
    if (job.status === "error") throw new ApiError(422, null, job.error?.message ?? "The transcription failed.");
    const percent = typeof job.progress === "number" ? ` ${Math.round(job.progress * 100)}%` : "";
    say("page-status", `Transcribing${job.stage ? ` (${job.stage})` : ""}${percent}…`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    job = (await apiJson<Job>(`/v1/jobs/${encodeURIComponent(job.job_id)}`)).body;
  }
}

async function getTranscript() {
  if (loading) return;
  loading = true;
  // Marks for the browser's performance timeline: the click to the first line shown, measurable in any profile.
  performance.mark("verbatim:transcript-asked");
  const button = $<HTMLButtonElement>("get-transcript");
  button.disabled = true;
  try {
    say("page-status", "Looking at this page…");
    if (!player.state && !(await player.lookAtActiveTab())) {
      say("page-status", "The extension cannot read this page.");
      return;
    }
    const source = player.state ? transcriptSource(player.state) : null;
    if (!source) {
      say("page-status", "No audio or video on this page.");
      return;
    }
    say("page-status", "Asking Verbatim…");
    const found = await request(source);
    transcript = found;
    shownFor = "url" in source ? source.url : source.audio;
    showTranscript(found);
    performance.measure("verbatim:click-to-first-line", "verbatim:transcript-asked");
    say("page-status", "");
  } catch (error) {
    say("page-status", message(error));
    if (error instanceof SignedOut) void refreshWho();
  } finally {
    loading = false;
    button.disabled = false;
  }
}

function showTranscript(found: Transcript) {
  const lines = shownLines(found.segments ?? []);
  say("transcript-title", found.title ?? found.source_url);
  say("transcript-status", lines.length === 0 ? "The transcript is empty." : "");
  view.show(lines);
  $("transcript").hidden = false;
  if (player.state) view.follow(player.state.time);
  void updateOpenLink();
  void showAlerts.offer(player.state?.show ?? null, found.channel ?? null, found.lang);
}

async function updateOpenLink() {
  const server = await serverOf();
  if (!server || !transcript) return;
  const at = Math.floor(player.state?.time ?? 0);
  $<HTMLAnchorElement>("open").href = `${server}/dashboard?transcript=${encodeURIComponent(transcript.id)}&t=${at}`;
}

async function copyQuote() {
  const line = view.lineNow();
  if (!transcript || !line) return;
  const text = quoteText(line, transcript.title, momentLink(transcript, line.start));
  try {
    await navigator.clipboard.writeText(text);
    say("transcript-status", `Copied the quote at ${clock(line.start)}.`);
  } catch {
    say("transcript-status", "The browser did not let the extension copy.");
  }
}

async function publish() {
  if (!transcript) return;
  try {
    const { body } = await apiJson<{ slug: string; url: string }>("/v1/publish", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: transcript.source_url, lang: transcript.lang }),
    });
    say("transcript-status", `Published at ${body.url}`);
  } catch (error) {
    say("transcript-status", message(error));
  }
}

async function download(format: string) {
  if (!transcript) return;
  try {
    const response = await api(
      `/v1/transcripts/${encodeURIComponent(transcript.id)}/download?format=${encodeURIComponent(format)}`,
    );
    if (!response.ok) throw await errorOf(response);
    const named = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1];
    const extension = format === "text" ? "txt" : format;
    const link = document.createElement("a");
    link.href = URL.createObjectURL(await response.blob());
    link.download = named ?? `${transcript.video_id}.${extension}`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
    say("transcript-status", `Downloaded ${link.download}.`);
  } catch (error) {
    say("transcript-status", message(error));
  }
}

async function search(query: string) {
  const list = $("search-results");
  list.replaceChildren();
  if (query.trim() === "") return;
  say("search-status", "Searching…");
  try {
    const server = (await serverOf())!;
    const { body } = await apiJson<SearchAnswer>(`/v1/me/search?q=${encodeURIComponent(query)}&limit=10`);
    say("search-status", body.results.length === 0 ? "Nothing found." : "");
    for (const result of body.results) {
      const target = result.links.viewer ?? result.links.page;
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.textContent = `${result.title ?? "Untitled"} (${clock(result.start)})`;
      if (target) link.href = new URL(target, server).href;
      link.target = "_blank";
      link.rel = "noopener noreferrer";
      const snippet = document.createElement("div");
      snippet.textContent = result.snippet;
      item.append(link, snippet);
      list.append(item);
    }
  } catch (error) {
    say("search-status", message(error));
  }
}

$("sign-in").addEventListener("submit", (event) => {
  event.preventDefault();
  say("sign-in-error", "");
  signIn($<HTMLInputElement>("server").value)
    .then(() => refreshWho())
    .catch((error: unknown) => say("sign-in-error", message(error)));
});
$("sign-out").addEventListener("click", () => void signOut().then(refreshWho));
$("search").addEventListener("submit", (event) => {
  event.preventDefault();
  void search($<HTMLInputElement>("search-q").value);
});
$("get-transcript").addEventListener("click", () => void getTranscript());
$("copy-quote").addEventListener("click", () => void copyQuote());
$("publish").addEventListener("click", () => void publish());
$("open").addEventListener("focus", () => void updateOpenLink());
$("open").addEventListener("pointerenter", () => void updateOpenLink());
for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-format]"))
  button.addEventListener("click", () => void download(button.dataset.format!));

void loadSession().then((session) => {
  if (session) $<HTMLInputElement>("server").value = session.server;
});
void refreshWho();
void player.start();
export {};
