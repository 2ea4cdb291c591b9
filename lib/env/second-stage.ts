/**
 * Search by meaning's second stage (lib/search/second-stage.ts): a sentence encoder that reads each passage whole,
 * in the background, and re-ranks the first stage's few dozen candidates. `use-lite`, Universal Sentence Encoder
 * lite (npm installs it); `off`, the first stage alone.
 */
import { z } from "zod";

export const SECOND_STAGE_SETTINGS = {
  SEARCH_SECOND_STAGE: z.enum(["use-lite", "off"]).default("use-lite"),
};
