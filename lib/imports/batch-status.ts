export type Counts = Record<"queued" | "running" | "done" | "failed" | "skipped", number>;

/** A batch's status and note from its item counts: running while any item is open. */
export function summarise(counts: Counts, firstNote: string | null): { status: string; note: string | null } {
  const total = counts.queued + counts.running + counts.done + counts.failed + counts.skipped;
  if (counts.queued + counts.running > 0) return { status: "running", note: null };
  if (counts.failed === 0) return { status: "done", note: null };
  if (counts.done + counts.skipped === 0)
    return { status: "error", note: `Every item failed${firstNote ? `; the first: ${firstNote}` : "."}` };
  return {
    status: "partial",
    note: `${counts.failed} of ${total} items failed${firstNote ? `; the first: ${firstNote}` : "."}`,
  };
}
