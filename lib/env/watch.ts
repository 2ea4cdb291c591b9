/**
 * The watch folder's settings (lib/env.ts reads them with the rest): media appearing in WATCH_DIR become
 * WATCH_ACCOUNT's transcripts, written beside them (lib/watch). WATCH_FORMATS is kept as text: its words are the
 * formats' (lib/watch/settings.ts reads them).
 */
import { z } from "zod";

export const WATCH_SETTINGS = {
  WATCH_DIR: z.string().min(1).optional(),
  /** The e-mail of the account the folder's files are transcribed for (its allowance, its history). */
  WATCH_ACCOUNT: z
    .email()
    .transform((email) => email.toLowerCase())
    .optional(),
  /** Formats written beside each file, comma-separated (read by lib/watch/settings.ts). */
  WATCH_FORMATS: z.string().min(1).default("srt,md"),
  WATCH_LANG: z
    .string()
    .regex(/^(auto|[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*)$/, "must be a language tag such as en or pt-BR, or auto")
    .default("auto"),
  WATCH_POLL_MS: z.coerce.number().int().min(100).max(600_000).default(2000),
  /** How long a file's size and modification time must stay the same before it is read (a copy in progress). */
  WATCH_SETTLE_MS: z.coerce.number().int().min(0).max(3_600_000).default(5000),
};
