// Reading a transcript as a given user sees it, and serialising it: every surface (REST, jobs, MCP, the
// dashboard, public pages, search) reads through here; corrections are written by lib/edits
// (docs/decisions/0010-one-read-model.md).
export { ORIGINAL, CURRENT, readTranscript, asSeenBy, seenAt, segmentsTextAsSeenBy } from "./read-transcript";
export type { ReadOptions, TranscriptView } from "./read-transcript";
export { getTranscript, downloadTranscript } from "./get-transcript";
export type { TranscriptQuery } from "./get-transcript";
export {
  serializedTranscriptJson,
  serializeTranscript,
  transcriptChapters,
  transcriptMeta,
  transcriptSegments,
} from "./serialize-transcript";
export { transcriptFile } from "./transcript-file";
