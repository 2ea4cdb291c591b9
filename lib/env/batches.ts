/**
 * Link batches' settings (lib/env.ts reads them with the rest): how many links one batch holds, how large a pasted
 * list or file may be, and how many of one account's items are started at once (lib/batches).
 */
import { z } from "zod";

export const BATCH_SETTINGS = {
  /** Links one batch holds at most (its lines, bad ones and duplicates included). */
  BATCH_MAX_LINKS: z.coerce.number().int().min(1).max(10_000).default(1000),
  /** The largest list or TXT/CSV file one batch is made of, in bytes. */
  BATCH_MAX_BYTES: z.coerce.number().int().min(1024).max(16_777_216).default(1_048_576),
  /** One account's batch items started at once (their transcriptions running); the rest wait in the batch. */
  BATCH_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
};
