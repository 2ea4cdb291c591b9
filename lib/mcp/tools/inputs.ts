// Arguments and answers several tools share.
import { z } from "zod";

import { FORMATS } from "@/lib/formats/types";
import { langSchema } from "@/lib/transcripts/schemas";

export const formatInput = z
  .enum(FORMATS)
  .default("json")
  .describe("json or text: one [hh:mm:ss] line per segment (the default); srt, vtt or md: that file format");
export const langInput = langSchema
  .default("en")
  .describe("Language tag of the transcript, e.g. en, de, pt-BR (default en)");
export const urlInput = z.string().min(1).max(2048);

/**
 * An output schema for MCP: the REST answer's object without its OpenAPI component id, so the JSON Schema the
 * SDK lists is an object schema itself rather than a reference (nested components stay in $defs).
 */
export function outputOf<S extends z.ZodObject>(schema: S): z.ZodObject<S["shape"]> {
  return z.object(schema.shape);
}
