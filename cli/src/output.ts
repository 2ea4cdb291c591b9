import pc from "picocolors";

// stdout carries the result and nothing else (with --json: one JSON document); messages, prompts and
// progress go to stderr. Live progress only when both streams are terminals and NO_COLOR is unset; colour
// the same way unless asked for or against (wantsColor).

export type Colors = ReturnType<typeof pc.createColors>;

export interface Output {
  json: boolean;
  /** Both streams are terminals and NO_COLOR is unset: colour, progress bars, the browser may be opened. */
  interactive: boolean;
  color: Colors;
  /** A line for the person, on stderr. */
  info(line: string): void;
  /** Result text on stdout, as is. */
  write(text: string): void;
  /** The --json result: one JSON document on stdout. */
  writeJson(value: unknown): void;
}

export function isInteractive(env: Record<string, string | undefined> = process.env): boolean {
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== "";
  return Boolean(process.stdout.isTTY && process.stderr.isTTY) && !noColor && env.TERM !== "dumb";
}

/**
 * Whether to colour, as most command-line programs decide (picocolors and chalk read the same): the last of
 * --color and --no-color given; else NO_COLOR (any value but empty) says no; else FORCE_COLOR says yes (but
 * "0" or "false": no), even into a pipe or a CI log; else colour on terminals (isInteractive).
 */
export function wantsColor(
  env: Record<string, string | undefined> = process.env,
  argv: readonly string[] = process.argv,
): boolean {
  const flag = argv.findLast((arg) => arg === "--color" || arg === "--no-color");
  if (flag) return flag === "--color";
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== "") return !["0", "false"].includes(force.toLowerCase());
  return isInteractive(env);
}

export function createOutput(options: { json: boolean }): Output {
  const interactive = isInteractive();
  return {
    json: options.json,
    interactive,
    color: pc.createColors(wantsColor()),
    info: (line) => void process.stderr.write(`${line}\n`),
    write: (text) => void process.stdout.write(text),
    writeJson: (value) => void process.stdout.write(`${JSON.stringify(value, null, 2)}\n`),
  };
}
