import { getDb } from "@/lib/db/client";
import { RequestValidationError } from "@/lib/http/validation";
import type { PublicIndexResponse } from "@/lib/publishing/schemas";

// The public index, newest first, by keyset pagination on (publishedAt, id) — the index
// Publication_publishedAt_id_idx — so every page costs the same at any depth. The cursor is opaque to
// callers: base64url of "<publishedAt ms>.<id>" of the last item of the previous page.

export interface IndexRow {
  id: string;
  slug: string;
  publishedAt: Date;
  updatedAt: Date;
  title: string | null;
  platform: string;
}

function encodeCursor(row: Pick<IndexRow, "publishedAt" | "id">): string {
  return Buffer.from(`${row.publishedAt.getTime()}.${row.id}`).toString("base64url");
}

function decodeCursor(cursor: string): { at: Date; id: string } {
  const [ms, id] = Buffer.from(cursor, "base64url").toString("utf8").split(".", 2);
  const at = Number(ms);
  if (!id || !/^\d{1,15}$/.test(ms ?? "") || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) {
    throw new RequestValidationError([
      {
        type: "value_error",
        loc: ["query", "cursor"],
        msg: "Value error, not a cursor from this index",
        input: cursor,
        ctx: { error: {} },
      },
    ]);
  }
  return { at: new Date(at), id };
}

/**
 * One page of published transcripts, newest first. `search` (the /explore page) matches title words,
 * case-insensitively; the API leaves it out.
 */
export async function listPublished(options: {
  cursor?: string;
  limit: number;
  search?: string;
}): Promise<{ rows: IndexRow[]; nextCursor: string | null }> {
  const db = await getDb();
  const after = options.cursor ? decodeCursor(options.cursor) : null;
  const search = options.search?.trim().slice(0, 100) || null;
  const pattern = search ? `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const rows = await db.$queryRaw<IndexRow[]>`
    SELECT p."id", p."slug", p."publishedAt", p."updatedAt", t."title", t."platform"
    FROM "Publication" p JOIN "Transcript" t ON t."id" = p."transcriptId"
    WHERE p."publishedAt" IS NOT NULL
      AND (${after?.at ?? null}::timestamp IS NULL OR (p."publishedAt", p."id") < (${after?.at ?? null}::timestamp, ${after?.id ?? ""}))
      AND (${pattern}::text IS NULL OR t."title" ILIKE ${pattern})
    ORDER BY p."publishedAt" DESC, p."id" DESC
    LIMIT ${options.limit + 1}`;
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return { rows: page, nextCursor: rows.length > options.limit && last ? encodeCursor(last) : null };
}

/** GET /v1/public/index. */
export async function publicIndex(query: { cursor?: string; limit: number }): Promise<PublicIndexResponse> {
  const { rows, nextCursor } = await listPublished(query);
  return {
    items: rows.map((row) => ({ slug: row.slug, updated_at: row.updatedAt.toISOString() })),
    next_cursor: nextCursor,
  };
}
