/**
 * The Podcasting 2.0 JSON transcript format as a JSON Schema (draft 2020-12), written from the podcast
 * namespace's own description (Podcastindex-org/podcast-namespace, transcripts/transcripts.md: `version`,
 * `segments` of `speaker`, `startTime`, `endTime` "if available", `body`; times in seconds). No other keys are
 * allowed, so a renderer that adds one fails.
 */
export const PODCAST_TRANSCRIPT_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  title: "Podcasting 2.0 JSON transcript",
  type: "object",
  required: ["version", "segments"],
  additionalProperties: false,
  properties: {
    version: { type: "string", pattern: "^[0-9]+\\.[0-9]+\\.[0-9]+$" },
    segments: {
      type: "array",
      items: {
        type: "object",
        required: ["startTime", "body"],
        additionalProperties: false,
        properties: {
          speaker: { type: "string", minLength: 1 },
          startTime: { type: "number", minimum: 0 },
          endTime: { type: "number", minimum: 0 },
          body: { type: "string" },
        },
      },
    },
  },
} as const;

/** The format's own example file (podcast-namespace, transcripts/example.json), word by word. */
export const PODCAST_TRANSCRIPT_EXAMPLE = {
  version: "1.0.0",
  segments: [
    { speaker: "Darth Vader", startTime: 0.5, endTime: 0.75, body: "I" },
    { speaker: "Darth Vader", startTime: 1, endTime: 1.25, body: "am" },
    { speaker: "Darth Vader", startTime: 1.5, endTime: 2.0, body: "your" },
    { speaker: "Darth Vader", startTime: 2.25, endTime: 2.5, body: "father." },
    { speaker: "Luke", startTime: 2.75, endTime: 3.0, body: "Nooooo" },
  ],
};
