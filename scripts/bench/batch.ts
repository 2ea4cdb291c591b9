// `npm run bench -- batch`: 1,000 links through the fakes as one batch, and another account's single link's wait
// during it against the idle server (batch-run.ts, in a process of its own: its settings are read once).
import { figuresOfProcess } from "./own-process";

export async function benchBatch(): Promise<Record<string, number>> {
  return figuresOfProcess("batch-run.ts");
}
