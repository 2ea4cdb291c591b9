// `npm run bench -- batch`: 1,000 links through the fakes as one batch, and another account's single link's wait
// during it against the idle server (batch-run.ts, in a process of its own: its settings are read once).
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const RUNNER = path.join(path.dirname(fileURLToPath(import.meta.url)), "batch-run.ts");

export async function benchBatch(): Promise<Record<string, number>> {
  const text = execFileSync(process.execPath, ["--import", "tsx", RUNNER], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(text.trim().split("\n").at(-1)!) as Record<string, number>;
}
