import type { Logger } from "pino";
import { createLogger } from "@/lib/observability/logger";

// The process's logger (lib/observability/logger.ts), writing into an array instead of stdout, for tests
// that check what was logged. `restore` puts the stdout logger back.

const holder = globalThis as { verbatimLogger?: Logger };

export function captureLogs(level = "debug") {
  const previous = holder.verbatimLogger;
  const lines: Record<string, unknown>[] = [];
  holder.verbatimLogger = createLogger({
    level,
    destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  });
  return {
    lines,
    restore() {
      holder.verbatimLogger = previous;
    },
  };
}
