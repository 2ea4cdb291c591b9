import { ApiError } from "@/lib/http/errors";
import { runOffThread } from "@/lib/process/off-thread";
import { prepareSave, type SaveJob, type SaveOutcome } from "@/lib/edits/prepare-save";

// A save's CPU work (prepare-save.ts) runs in a worker thread, never on the event loop that serves requests:
// a 4 MiB correction delays only itself. The thread has a heap limit and a deadline (EDIT_SAVE_SECONDS);
// past either, the save is refused and nothing is stored. A small save (the usual one: a few segments, or
// a short transcript) is prepared on the spot with a smaller diff budget, which bounds it to a few
// milliseconds: a thread's start would cost more than the work.

export interface SaveThreadSettings {
  /** Saves prepared at once in this process (EDIT_SAVE_THREADS); the others wait their turn. */
  threads: number;
  /** Deadline for one save's preparation (EDIT_SAVE_SECONDS). */
  timeoutMs: number;
}

/** A 4 MiB body's segments, the current version's and the result, several times over. */
const MEMORY_MB = 512;
/** A save is small when its body's and the current version's text together are at most this many characters. */
export const INLINE_MAX_CHARS = 50_000;
/** The diff steps of a save prepared on the spot (retime.ts SAVE_DIFF_STEPS is the thread's). */
export const INLINE_DIFF_STEPS = 500_000;

/** Whether the text of `job` (body and current version) is at most `limit` characters; stops counting past it. */
export function isSmall(job: SaveJob, limit = INLINE_MAX_CHARS): boolean {
  let chars = job.body.content?.length ?? 0;
  const count = (segments: readonly { text: string; words?: readonly { text: string }[] }[]) => {
    for (const s of segments) {
      if (chars > limit) return;
      // A word time is about as much work as a few characters of text.
      chars += s.text.length + (s.words?.length ?? 0) * 8;
    }
  };
  count(job.body.segments ?? []);
  count(job.current);
  return chars <= limit;
}

function tooMuch(): ApiError {
  return new ApiError(
    "payload_too_large",
    "This correction takes more work to save than one save may use. Send it in smaller steps (fewer segments changed at a time).",
  );
}

/** The outcome of prepareSave(job): on the spot when the job is small, else in a worker thread. */
export async function prepareSaveOffThread(job: SaveJob, settings: SaveThreadSettings): Promise<SaveOutcome> {
  if (isSmall(job)) return prepareSave({ ...job, diffSteps: Math.min(job.diffSteps ?? Infinity, INLINE_DIFF_STEPS) });
  return runOffThread<SaveOutcome>(job, { ...settings, memoryMb: MEMORY_MB }, tooMuch);
}
