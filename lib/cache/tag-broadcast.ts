import { randomUUID } from "node:crypto";
import pg from "pg";
import { log } from "@/lib/observability/logger";

// The other half of lib/cache/next-cache-handler.mjs: with PostgreSQL (several app processes may share
// it) every cache tag one process expires (a page unpublished, say) is sent to the others with NOTIFY, and
// each process expires the tags it hears of in its own cache. One connection per process, LISTENing;
// a lost connection is opened again after a second.

const CHANNEL = "verbatim_cache_tags";
const HOOK = Symbol.for("verbatim.next-cache-tags");
const RECONNECT_MS = 1000;

type Durations = { expire?: number } | undefined;
interface Hook {
  expireLocally: ((tags: string[], durations: Durations) => Promise<void>) | null;
  broadcast: ((tags: string[], durations: Durations) => Promise<void>) | null;
}
interface Message {
  from: string;
  tags: string[];
  durations?: { expire?: number };
}

const hookOf = () => (globalThis as Record<symbol, Hook | undefined>)[HOOK];

/**
 * Starts the broadcast for this process (once; a no-op where Next.js's cache handler is not loaded).
 * `stop` ends it (tests).
 */
export function startTagBroadcast(databaseUrl: string): { stop(): Promise<void> } {
  const hook = hookOf();
  if (!hook || hook.broadcast) return { stop: async () => {} };
  const self = randomUUID();
  let client: pg.Client | null = null;
  let stopped = false;

  const connect = async () => {
    const next = new pg.Client({ connectionString: databaseUrl, application_name: "verbatim cache tags" });
    next.on("notification", (note) => {
      try {
        const message = JSON.parse(note.payload ?? "") as Message;
        if (message.from !== self && Array.isArray(message.tags))
          void hook.expireLocally?.(message.tags, message.durations);
      } catch {
        // not ours
      }
    });
    const retry = (error?: Error) => {
      if (client !== next || stopped) return;
      client = null;
      if (error) log.warn({ err: error.message }, "cache tags: connection lost");
      next.end().catch(() => {});
      setTimeout(() => void connect(), RECONNECT_MS).unref();
    };
    next.on("error", retry);
    next.on("end", () => retry());
    client = next;
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      retry(error as Error);
    }
  };

  hook.broadcast = async (tags, durations) => {
    const payload = JSON.stringify({ from: self, tags, ...(durations ? { durations } : {}) } satisfies Message);
    try {
      if (!client) throw new Error("no connection");
      await client.query("SELECT pg_notify($1, $2)", [CHANNEL, payload]);
    } catch (error) {
      log.warn({ err: (error as Error).message, tags }, "cache tags: could not tell the other processes");
    }
  };
  void connect();
  return {
    async stop() {
      stopped = true;
      hook.broadcast = null;
      const last = client;
      client = null;
      await last?.end().catch(() => {});
    },
  };
}
