import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

// A fake of Notion's public API (https://developers.notion.com/reference, Notion-Version 2022-06-28), for the calls
// export destinations make, with its request limits: an integration averaging more than three requests a second is
// answered 429 `rate_limited` with `Retry-After` (whole seconds), as "Request limits" says; bodies past its size
// limits are answered 400 `validation_error`. Errors have Notion's shape: {object: "error", status, code, message}.

export interface FakeBlock {
  type: string;
  [key: string]: unknown;
}

export interface FakePage {
  id: string;
  databaseId: string;
  title: string;
  blocks: FakeBlock[];
  archived: boolean;
}

export interface FakeNotion {
  origin: string;
  /** Tokens the fake accepts, and the databases each may reach. */
  grant(token: string, databaseId: string, titleProperty?: string): void;
  pages: Map<string, FakePage>;
  /** Every request: when, method, path, answer. */
  requests: { at: number; method: string; path: string; status: number }[];
  /** The next `count` requests are answered `status` (e.g. 500, 503). */
  failNext(status: number, count?: number): void;
  close(): Promise<void>;
}

const MAX_BLOCKS = 100;
const MAX_TEXT = 2000;

export async function startFakeNotion(
  options: { perSecond?: number; retryAfterSeconds?: number } = {},
): Promise<FakeNotion> {
  const perSecond = options.perSecond ?? 3;
  const retryAfter = options.retryAfterSeconds ?? 1;
  const access = new Map<string, Set<string>>();
  const titles = new Map<string, string>();
  const pages = new Map<string, FakePage>();
  const requests: FakeNotion["requests"] = [];
  const recent = new Map<string, number[]>();
  let failures: { status: number; count: number } | null = null;

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  };
  const error = (res: ServerResponse, status: number, code: string, message: string, headers = {}) =>
    send(res, status, { object: "error", status, code, message }, headers);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<number> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    if (!token || !access.has(token)) {
      error(res, 401, "unauthorized", "API token is invalid.");
      return 401;
    }
    // An average of `perSecond` a second, over a one-second window.
    const now = Date.now();
    const window = (recent.get(token) ?? []).filter((t) => now - t < 1000);
    if (window.length >= perSecond) {
      recent.set(token, window);
      error(res, 429, "rate_limited", "You have been rate limited. Please try again in a few minutes.", {
        "retry-after": String(retryAfter),
      });
      return 429;
    }
    window.push(now);
    recent.set(token, window);
    if (!req.headers["notion-version"]) {
      error(
        res,
        400,
        "missing_version",
        "Notion-Version header failed validation: Notion-Version header should be defined.",
      );
      return 400;
    }
    if (failures && failures.count > 0) {
      failures.count--;
      error(res, failures.status, "internal_server_error", "Unexpected error occurred.");
      return failures.status;
    }
    let body: Record<string, unknown> = {};
    if (chunks.length > 0) {
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
      } catch {
        error(res, 400, "invalid_json", "Error parsing JSON body.");
        return 400;
      }
    }
    const reachable = access.get(token)!;
    const database = /^\/v1\/databases\/([^/]+)$/.exec(path);
    if (req.method === "GET" && database) {
      const id = decodeURIComponent(database[1]!);
      if (!reachable.has(id)) return notFound(res, id);
      send(res, 200, {
        object: "database",
        id,
        properties: {
          [titles.get(id) ?? "Name"]: { id: "title", name: titles.get(id) ?? "Name", type: "title", title: {} },
          Tags: { id: "tags", name: "Tags", type: "multi_select", multi_select: { options: [] } },
        },
      });
      return 200;
    }
    if (req.method === "POST" && path === "/v1/pages") {
      const parent = body.parent as { database_id?: string } | undefined;
      const databaseId = parent?.database_id;
      if (!databaseId || !reachable.has(databaseId)) return notFound(res, String(databaseId));
      const properties = (body.properties ?? {}) as Record<string, { title?: { text: { content: string } }[] }>;
      const titleName = titles.get(databaseId) ?? "Name";
      for (const name of Object.keys(properties))
        if (name !== titleName) {
          error(res, 400, "validation_error", `${name} is not a property that exists.`);
          return 400;
        }
      const blocks = (body.children ?? []) as FakeBlock[];
      const invalid = checkBlocks(blocks);
      if (invalid) {
        error(res, 400, "validation_error", invalid);
        return 400;
      }
      const id = randomUUID();
      const title = (properties[titleName]?.title ?? []).map((t) => t.text.content).join("");
      pages.set(id, { id, databaseId, title, blocks: [...blocks], archived: false });
      send(res, 200, { object: "page", id, parent: { type: "database_id", database_id: databaseId }, archived: false });
      return 200;
    }
    const children = /^\/v1\/blocks\/([^/]+)\/children$/.exec(path);
    if (req.method === "PATCH" && children) {
      const page = pages.get(decodeURIComponent(children[1]!));
      if (!page || !reachable.has(page.databaseId)) return notFound(res, children[1]!);
      const blocks = (body.children ?? []) as FakeBlock[];
      const invalid = checkBlocks(blocks);
      if (invalid) {
        error(res, 400, "validation_error", invalid);
        return 400;
      }
      page.blocks.push(...blocks);
      send(res, 200, { object: "list", results: blocks, next_cursor: null, has_more: false });
      return 200;
    }
    const pagePath = /^\/v1\/pages\/([^/]+)$/.exec(path);
    if (req.method === "PATCH" && pagePath) {
      const page = pages.get(decodeURIComponent(pagePath[1]!));
      if (!page || !reachable.has(page.databaseId)) return notFound(res, pagePath[1]!);
      if (typeof body.archived === "boolean") page.archived = body.archived;
      if (typeof body.in_trash === "boolean") page.archived = body.in_trash;
      send(res, 200, { object: "page", id: page.id, archived: page.archived, in_trash: page.archived });
      return 200;
    }
    error(res, 400, "invalid_request_url", "Invalid request URL.");
    return 400;
  }

  function notFound(res: ServerResponse, id: string): number {
    error(
      res,
      404,
      "object_not_found",
      `Could not find database with ID: ${id}. Make sure the relevant pages and databases are shared with your integration.`,
    );
    return 404;
  }

  const server = createServer((req, res) => {
    const at = Date.now();
    handle(req, res).then(
      (status) => requests.push({ at, method: req.method ?? "", path: req.url ?? "", status }),
      () => {
        if (!res.headersSent) error(res, 500, "internal_server_error", "Unexpected error occurred.");
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    grant(token, databaseId, titleProperty = "Name") {
      const set = access.get(token) ?? new Set<string>();
      set.add(databaseId);
      access.set(token, set);
      titles.set(databaseId, titleProperty);
    },
    pages,
    requests,
    failNext(status, count = 1) {
      failures = { status, count };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Notion's size limits on block children: at most 100 blocks, each rich text at most 2,000 characters (100 of them). */
function checkBlocks(blocks: FakeBlock[]): string | null {
  if (blocks.length > MAX_BLOCKS)
    return `body failed validation: body.children.length should be ≤ \`${MAX_BLOCKS}\`, instead was \`${blocks.length}\`.`;
  for (const [i, block] of blocks.entries()) {
    const content = block[block.type] as { rich_text?: { text: { content: string } }[] } | undefined;
    const rich = content?.rich_text ?? [];
    if (rich.length > 100) return `body failed validation: body.children[${i}].rich_text.length should be ≤ \`100\`.`;
    for (const text of rich)
      if (text.text.content.length > MAX_TEXT)
        return `body failed validation: body.children[${i}].${block.type}.rich_text[0].text.content.length should be ≤ \`${MAX_TEXT}\`, instead was \`${text.text.content.length}\`.`;
  }
  return null;
}
