/** The notes export's and export destinations' settings (lib/env.ts reads them with the rest; lib/exports). */
import { z } from "zod";

export const EXPORT_SETTINGS = {
  // A notes export: notes it holds at most (a larger selection is a 413 before anything is read), transcript ids one
  // request may name.
  EXPORT_MAX_NOTES: z.coerce.number().int().positive().default(10_000),
  EXPORT_MAX_IDS: z.coerce.number().int().positive().max(10_000).default(1000),
  // Export destinations (lib/exports/destinations): the folder under which folder destinations may be made (none:
  // they are refused), Notion's API origin, destinations per account, retries (the first wait, ×3 each time, at
  // most 6 h) and attempts per delivery, and one attempt's total deadline.
  EXPORT_FOLDER_ROOT: z.string().trim().min(1).optional(),
  NOTION_API_URL: z.url().default("https://api.notion.com"),
  EXPORT_MAX_DESTINATIONS: z.coerce.number().int().positive().max(100).default(10),
  EXPORT_RETRY_BASE_MS: z.coerce.number().int().positive().default(30_000),
  EXPORT_MAX_ATTEMPTS: z.coerce.number().int().positive().max(30).default(10),
  EXPORT_ATTEMPT_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
};
