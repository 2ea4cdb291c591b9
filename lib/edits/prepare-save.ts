import { CaptionParseError, namedTurns, parseCaptions, tidy } from "@/lib/captions/parse";
import { renderTranscript } from "@/lib/formats";
import { speakerBoundsProblem, speakersOf } from "@/lib/formats/speakers";
import type { Format, Segment, TranscriptMeta } from "@/lib/formats/types";
import type { Loc, ValidationErrorItem } from "@/lib/http/validation";
import { followTimings, SAVE_DIFF_STEPS, type EditedSegment } from "@/lib/edits/retime";
import type { EditRequest } from "@/lib/edits/schemas";
import { densityProblem, type DensityLimits } from "@/lib/edits/density";
import { segmentProblems, speakerProblems } from "@/lib/edits/validate";
import { diffBudget } from "@/lib/edits/word-diff";
import { indexTokens } from "@/lib/edits/index-tokens";

// The CPU work of a save, as one pure function of plain data, so that it runs in a worker thread
// (revisions.ts sends it there through lib/process/off-thread.ts): reading a subtitle body, validating
// the corrected list, carrying word times over (retime.ts, under one diff budget for the whole save), and
// writing the result as JSON text. Proportional to the body; nothing here touches the database.
// The answer is that text, not the segments: the event loop passes it to PostgreSQL as it is (a jsonb
// parameter), where rebuilding a large correction's objects from a worker's message and handing them to
// Prisma, which walks every value of a Json field, held the event loop far too long. The answer's segments
// are that same text, spliced in (revisions.ts), and the answer in another format is rendered here too:
// parsing the text back and writing it again would hold the event loop again (docs/decisions/0017).

/** What the worker is given (workerData). */
export interface SaveJob {
  kind: "edit";
  body: EditRequest;
  /** What the author sees now. */
  current: Segment[];
  /** The latest a corrected segment may end (revisions.ts: the media's duration or the source's last end). */
  maxEnd: number;
  /** The most the correction may hold (density.ts); a rename, which changes no text, is not measured. */
  limits?: DensityLimits;
  /** Diff steps for the whole save (retime.ts SAVE_DIFF_STEPS; tests give fewer). */
  diffSteps?: number;
  /** The answer's format when it is not json: the saved segments rendered in it (`content`). */
  render?: { format: Exclude<Format, "json">; meta: TranscriptMeta };
}

/**
 * What the worker answers: the segments to store as JSON text, its size in bytes, how many segments, and
 * their rendering in the job's `render` format (else null); or the 422 items.
 */
export type SaveOutcome =
  | {
      ok: true;
      segmentsJson: string;
      sizeBytes: number;
      segmentCount: number;
      content: string | null;
      diffSteps: number;
      /** The tokens search indexes of the saved text (index-tokens.ts): what the save costs (rate-limits.ts editSaveCost). */
      indexTokens: number;
    }
  | { ok: false; problems: ValidationErrorItem[] };

/** The bytes a revision's segments take as JSON (UTF-8): what EDIT_STORAGE_BYTES counts. */
export function segmentsSize(segments: readonly Segment[]): number {
  return Buffer.byteLength(JSON.stringify(segments), "utf8");
}

function problem(loc: Loc, msg: string, input: unknown): ValidationErrorItem {
  return { type: "value_error", loc, msg: `Value error, ${msg}`, input, ctx: { error: {} } };
}

/**
 * The corrected list a PATCH body gives: its segments, its subtitle file read by the one caption parser, or
 * the current list with one speaker renamed.
 */
function editedSegments(body: EditRequest, current: readonly Segment[]): EditedSegment[] | ValidationErrorItem {
  const hasSegments = body.segments !== undefined;
  const hasFile = body.format !== undefined || body.content !== undefined;
  const hasRename = body.rename_speaker !== undefined;
  if (Number(hasSegments) + Number(hasFile) + Number(hasRename) !== 1)
    return problem(["body"], "give either `segments`, `format` with `content`, or `rename_speaker`", null);
  if (hasSegments) return body.segments!;
  if (hasRename) return renamed(body.rename_speaker!, current);
  if (body.format === undefined || body.content === undefined)
    return problem(
      ["body", body.format === undefined ? "format" : "content"],
      "`format` and `content` go together",
      null,
    );
  try {
    // Manual captions' cleanup only (tidy): a correction is the author's text, never de-duplicated.
    const cues = parseCaptions(body.content, body.format);
    // An SRT names speakers as `Name:` (as Verbatim writes it): read for a transcript that names them.
    const known = new Set(speakersOf(current));
    const named =
      body.format === "srt" && known.size > 0 && !cues.some((c) => c.speaker) ? namedTurns(cues, known) : cues;
    const bounds = speakerBoundsProblem(named);
    if (bounds !== null) return problem(["body", "content"], bounds, null);
    return tidy(named);
  } catch (error) {
    if (error instanceof CaptionParseError) return problem(["body", "content"], error.message, null);
    throw error;
  }
}

/** The current list with `from` renamed `to` (a 422 item when `to` is no name, or nobody is called `from`). */
function renamed(
  rename: { from: string; to: string },
  current: readonly Segment[],
): EditedSegment[] | ValidationErrorItem {
  const to = rename.to.replace(/\s+/g, " ").trim();
  const bad = speakerProblems(to, ["body", "rename_speaker", "to"])[0];
  if (bad) return bad;
  if (!current.some((s) => s.speaker === rename.from))
    return problem(
      ["body", "rename_speaker", "from"],
      "no segment of this transcript is spoken by this name",
      rename.from,
    );
  return current.map((s) => (s.speaker === rename.from ? { ...s, speaker: to } : s));
}

export function prepareSave(job: SaveJob): SaveOutcome {
  const edited = editedSegments(job.body, job.current);
  if (!Array.isArray(edited)) return { ok: false, problems: [edited] };
  const at: Loc = job.body.segments
    ? ["body", "segments"]
    : job.body.rename_speaker
      ? ["body", "rename_speaker"]
      : ["body", "content"];
  const dense = job.limits && !job.body.rename_speaker ? densityProblem(edited, job.limits, at) : null;
  if (dense) return { ok: false, problems: [dense] };
  const problems = segmentProblems(edited, job.maxEnd, job.current, at);
  if (problems.length > 0) return { ok: false, problems };
  const budget = diffBudget(job.diffSteps ?? SAVE_DIFF_STEPS);
  const segments = followTimings(job.current, edited, budget);
  const segmentsJson = JSON.stringify(segments);
  return {
    ok: true,
    segmentsJson,
    sizeBytes: Buffer.byteLength(segmentsJson, "utf8"),
    segmentCount: segments.length,
    content: job.render ? renderTranscript(job.render.format, segments, job.render.meta).content : null,
    diffSteps: budget.used,
    indexTokens: segments.reduce((sum, s) => sum + indexTokens(s.text), 0),
  };
}
