// A bench whose settings are read once a process (the app's modules: one connection, one environment) runs in a
// process of its own, which prints its figures as its last line of JSON.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Runs scripts/bench/`file` with tsx and `args`; its last line of standard output, parsed. */
export function figuresOfProcess(file: string, args: string[] = []): Record<string, number> {
  const runner = path.join(path.dirname(fileURLToPath(import.meta.url)), file);
  const text = execFileSync(process.execPath, ["--import", "tsx", runner, ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(text.trim().split("\n").at(-1)!) as Record<string, number>;
}
