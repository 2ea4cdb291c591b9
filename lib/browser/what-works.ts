import type { ServerCapabilities } from "@/lib/health/capabilities";
import type { SetupLine } from "@/lib/health/setup-checks";
import type { WhatWorksView } from "@/lib/health/what-works";

// The rows of the dashboard's "What works on this server" (components/dashboard/transcribe/first-run.tsx):
// each row true of what it names, given the setup checks. Everyone sees what they can do; an operator also
// gets the failing checks (`problems`, only ever sent to an operator's page), each with what was found and
// its fix.

export type { WhatWorksView };

/** A link with captions to try on a first visit: TED's "Grit" talk, which has manual English captions. */
export const SAMPLE_LINK = "https://www.youtube.com/watch?v=H14bBuluwB8";

const OTHER_PLATFORMS = "X, TikTok, Facebook, Instagram, RedNote and Vimeo";

export interface WhatWorksRow {
  testId: string;
  /** true ✓, false –, or still being checked. */
  state: boolean | "checking";
  title: string;
  text: string;
}

/** Checks an operator reads inside the files row (the cause, with its fix) rather than as a row of their own. */
const FILES_CHECKS: readonly SetupLine["id"][] = ["speech_model", "ffmpeg"];

function linksRows({ youtube, links }: ServerCapabilities): WhatWorksRow[] {
  const row = (state: WhatWorksRow["state"], text: string): WhatWorksRow => ({
    testId: "can-captions",
    state,
    title: "Links with captions",
    text,
  });
  const atOnce = "videos that have captions: the transcript comes back at once.";
  if (youtube === "checking" || links === "checking")
    return [row("checking", "Checking… which platforms this server can reach.")];
  if (youtube === "unavailable" && links === "unavailable")
    return [row(false, "Not on this server right now: links cannot be transcribed here.")];
  if (youtube === "available" && links === "available") return [row(true, `YouTube, ${OTHER_PLATFORMS} ${atOnce}`)];
  if (youtube === "available")
    return [
      row(true, `YouTube ${atOnce}`),
      {
        testId: "cannot-links",
        state: false,
        title: `Links to ${OTHER_PLATFORMS}`,
        text: "Not on this server right now: these platforms cannot be reached from here.",
      },
    ];
  return [
    row(true, `${OTHER_PLATFORMS} ${atOnce}`),
    {
      testId: "cannot-youtube",
      state: false,
      title: "YouTube links",
      text: "Not on this server right now: YouTube cannot be reached from here.",
    },
  ];
}

/**
 * Podcasts whose feed publishes each episode's transcript (Podcasting 2.0) take it as captions, with no speech
 * recognition: said on a server without it, where the files row cannot speak for podcasts.
 */
const PODCASTS_WITH_TRANSCRIPTS: WhatWorksRow = {
  testId: "can-podcast-transcripts",
  state: true,
  title: "Podcasts that publish their transcripts",
  text: "Episodes whose feed links a transcript (Podcasting 2.0) are imported and followed with it, at once. Episodes without one need speech recognition.",
};

function filesRows(view: WhatWorksView): WhatWorksRow[] {
  const { files } = view.capabilities;
  const by = view.recogniser ? ` (${view.recogniser})` : "";
  const row = (state: WhatWorksRow["state"], text: string): WhatWorksRow => ({
    testId: "can-asr",
    state,
    title: "Files, podcasts and videos without captions",
    text,
  });
  if (!view.speechRecognition)
    return [
      {
        testId: "can-asr",
        state: false,
        title: "Files, podcast episodes without a transcript, and videos without captions",
        text: "Not on this server: they need speech recognition, which has not been set up here.",
      },
      PODCASTS_WITH_TRANSCRIPTS,
    ];
  return [filesRow(view, row, by, files)];
}

function filesRow(
  view: WhatWorksView,
  row: (state: WhatWorksRow["state"], text: string) => WhatWorksRow,
  by: string,
  files: ServerCapabilities["files"],
): WhatWorksRow {
  if (files === "checking")
    return row("checking", `Checking… whether the speech model${by} is here or can be fetched.`);
  if (files === "available")
    return row(
      true,
      `Transcribed by speech recognition${by} in the background; follow the progress here or in History.`,
    );
  const causes = (view.problems ?? []).filter((line) => line.ok === false && FILES_CHECKS.includes(line.id));
  if (causes.length === 0) return row(false, "Not on this server right now: files cannot be transcribed here.");
  return row(
    false,
    `Not on this server yet: ${causes.map((line) => `${line.found}. ${line.fix ?? ""}`.trim()).join(" ")}`,
  );
}

/** What a person can do here, row by row (an operator's rows name the causes of a missing file row). */
export function whatWorksRows(view: WhatWorksView): WhatWorksRow[] {
  const rows = [...linksRows(view.capabilities), ...filesRows(view)];
  if (Object.values(view.capabilities).includes("checking"))
    rows.push({
      testId: "setup-checking",
      state: "checking",
      title: "This server's setup",
      text:
        view.problems !== undefined
          ? "Checking… the database, reaching YouTube, yt-dlp, ffmpeg and the configured services (what `npm run doctor` prints). Results appear here in a few seconds."
          : "Checking… what works on this server. Results appear here in a few seconds.",
    });
  return rows;
}

/** An operator's ✗ rows: every failing check not already told in the files row. Nobody else gets any. */
export function problemRows(view: WhatWorksView): SetupLine[] {
  return (view.problems ?? []).filter((line) => line.ok === false && !FILES_CHECKS.includes(line.id));
}

/**
 * The sample link, offered only once it is known to work: YouTube reachable (no other sample is known to); not
 * while the checks still run, where a first try could fail for a reason the panel is about to name.
 */
export function sampleLinkFor(capabilities: ServerCapabilities): string | null {
  return capabilities.youtube === "available" ? SAMPLE_LINK : null;
}
