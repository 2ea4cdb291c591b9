/** REST operations named in the API's sentences, and the tool that does the same here. */
const TOOL_FOR_OPERATION: [RegExp, string][] = [
  [/POST \/v1\/transcript\b/g, "get_transcript"],
  [/GET \/v1\/jobs\/\{?[\w-]*\}?/g, "get_job"],
  [/GET \/v1\/languages\b/g, "list_languages"],
  [/POST \/v1\/publish\b/g, "publish_transcript"],
  [/DELETE \/v1\/publish\b[^\s,.)]*/g, "unpublish_transcript"],
  [/POST \/v1\/podcast\/resolve\b/g, "resolve_podcast"],
  [/GET \/v1\/me\/transcriptions\b/g, "search_transcriptions"],
  [/GET \/v1\/me\/search\b/g, "search_transcripts"],
  [/GET \/v1\/me\/subscription\b/g, "get_usage"],
  [/PATCH \/v1\/transcripts\/\{?[\w-]*\}?/g, "edit_transcript"],
  [/DELETE \/v1\/transcripts\/\{?[\w-]*\}?\/edits/g, "edit_transcript (restore: true)"],
];

/** An API sentence as an assistant acts on it: tools where it names REST operations. */
export function namingTools(sentence: string): string {
  return TOOL_FOR_OPERATION.reduce((text, [operation, tool]) => text.replace(operation, tool), sentence);
}
