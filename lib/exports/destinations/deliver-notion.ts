import type { Outbound } from "@/lib/http/outbound";
import { NotionError, notionClient } from "./notion-client";
import { noteBlocks, type NotionBlock } from "./notion-blocks";

/** Blocks one request may carry (Notion's limit for `children`). */
const BLOCKS_PER_REQUEST = 100;

interface Database {
  properties: Record<string, { type: string }>;
}

/**
 * The note as a page in the destination's database: a new page (its title in the database's title property, the
 * body as blocks, 100 per request), and for a transcript it delivered before (`previousPageId`), the old page moved
 * to the trash once the new one is whole, so the database holds one page per transcript and never a half one.
 * Returns the new page's id, and a note when the old page could not be moved to the trash.
 */
export async function deliverToNotion(options: {
  outbound: Outbound;
  baseUrl: string;
  token: string;
  databaseId: string;
  note: string;
  previousPageId: string | null;
  deadline: number;
}): Promise<{ pageId: string; note: string | null }> {
  const notion = notionClient(options);
  const database = await notion.request<Database>("GET", `/v1/databases/${encodeURIComponent(options.databaseId)}`);
  const titleProperty = Object.entries(database.properties ?? {}).find(([, p]) => p.type === "title")?.[0];
  if (!titleProperty) throw new NotionError("The Notion database has no title property.", null, false);
  const { title, blocks } = noteBlocks(options.note);
  const [first, ...rest] = batches(blocks);
  const page = await notion.request<{ id: string }>("POST", "/v1/pages", {
    parent: { database_id: options.databaseId },
    properties: { [titleProperty]: { title: [{ type: "text", text: { content: title.slice(0, 2000) } }] } },
    children: first ?? [],
  });
  try {
    for (const children of rest)
      await notion.request("PATCH", `/v1/blocks/${encodeURIComponent(page.id)}/children`, { children });
  } catch (error) {
    // A half page is not left in the database: the next attempt makes the page again.
    await notion.request("PATCH", `/v1/pages/${encodeURIComponent(page.id)}`, { archived: true }).catch(() => {});
    throw error;
  }
  if (!options.previousPageId || options.previousPageId === page.id) return { pageId: page.id, note: null };
  // The new page is whole and recorded whatever happens next: a failure here leaves the old page beside it (said in
  // the delivery's note) rather than making the new page again on a retry.
  const note = await notion
    .request("PATCH", `/v1/pages/${encodeURIComponent(options.previousPageId)}`, { archived: true })
    .then(
      () => null,
      (error: unknown) =>
        error instanceof NotionError && error.status === 404
          ? null // already gone: the person deleted it
          : `The previous page (${options.previousPageId}) could not be moved to the trash: ${error instanceof Error ? error.message : String(error)}`,
    );
  return { pageId: page.id, note };
}

function batches(blocks: NotionBlock[]): NotionBlock[][] {
  const out: NotionBlock[][] = [];
  for (let i = 0; i < blocks.length; i += BLOCKS_PER_REQUEST) out.push(blocks.slice(i, i + BLOCKS_PER_REQUEST));
  return out;
}
