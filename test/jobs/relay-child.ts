// The Inngest relay in a process of its own, for the test that kills it mid-batch:
//   DATABASE_URL=... INNGEST_EVENT_KEY=... INNGEST_BASE_URL=... RELAY_OWNER=a LEASE_MS=1000 CONCURRENCY=3 \
//     node --import tsx test/jobs/relay-child.ts
// Prints "ready" once it listens.
import { Inngest } from "inngest";
import { getDb } from "@/lib/db/client";
import { startInngestRelay } from "@/lib/jobs/drivers/inngest-relay";

const number = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const quiet = { info() {}, warn() {}, error() {}, debug() {} };

const db = await getDb();
await startInngestRelay({
  db,
  client: new Inngest({
    id: "verbatim",
    eventKey: process.env.INNGEST_EVENT_KEY,
    baseUrl: process.env.INNGEST_BASE_URL,
    logger: quiet,
    internalLogger: quiet,
  }),
  owner: process.env.RELAY_OWNER,
  leaseMs: number("LEASE_MS", 30_000),
  pollMs: number("POLL_MS", 5_000),
  concurrency: number("CONCURRENCY", 2),
  keepAlive: true,
  log: (line) => process.stderr.write(`[${process.env.RELAY_OWNER ?? "relay"}] ${line}\n`),
});
process.stdout.write("ready\n");
