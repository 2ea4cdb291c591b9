/**
 * The watch folder's settings (lib/env.ts reads them with the rest): media appearing in WATCH_DIR become
 * WATCH_ACCOUNT's transcripts (a person's or a team's), written beside them (lib/watch). WATCH_FORMATS is kept as
 * text: its words are the formats' (lib/watch/settings.ts reads them).
 */
import { z } from "zod";

/** A team's slug, as lib/teams/schemas.ts makes them (the settings import nothing of the app's). */
const TEAM_SLUG = /^[a-z0-9](?:[a-z0-9-]{1,38}[a-z0-9])$/;

export const WATCH_SETTINGS = {
  WATCH_DIR: z.string().min(1).optional(),
  /**
   * Whose the folder's files become (its allowance, its history): a person's e-mail, or a team's slug (the team's
   * library, as the team's API key would file them).
   */
  WATCH_ACCOUNT: z
    .string()
    .trim()
    .transform((account) => account.toLowerCase())
    .pipe(
      z.union([z.email(), z.string().regex(TEAM_SLUG)], {
        error: "must be a person's e-mail or a team's slug (such as newsroom)",
      }),
    )
    .optional(),
  /** Formats written beside each file, comma-separated, or `none` (read by lib/watch/settings.ts). */
  WATCH_FORMATS: z.string().min(1).default("srt,md"),
  WATCH_LANG: z
    .string()
    .regex(/^(auto|[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*)$/, "must be a language tag such as en or pt-BR, or auto")
    .default("auto"),
  WATCH_POLL_MS: z.coerce.number().int().min(100).max(600_000).default(2000),
  /** How long a file's size and modification time must stay the same before it is read (a copy in progress). */
  WATCH_SETTLE_MS: z.coerce.number().int().min(0).max(3_600_000).default(5000),
};
