import pc from "picocolors";

// stdout carries the result and nothing else (with --json: one JSON document); messages, prompts and
// progress go to stderr. Colour and live progress only when both streams are terminals and NO_COLOR is unset.

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

export function createOutput(options: { json: boolean }): Output {
  const interactive = isInteractive();
  return {
    json: options.json,
    interactive,
    color: pc.createColors(interactive),
    info: (line) => void process.stderr.write(`${line}\n`),
    write: (text) => void process.stdout.write(text),
    writeJson: (value) => void process.stdout.write(`${JSON.stringify(value, null, 2)}\n`),
  };
}
