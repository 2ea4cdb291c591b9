import { execFileSync, spawn } from "node:child_process";
import path from "node:path";

// The built CLI (cli/dist/verbatim.mjs) as a child process, for its integration and e2e tests: built
// once per test process from the current sources, run with pipes (so stdout and stderr are not terminals).

export const CLI_PATH = path.resolve(import.meta.dirname, "../cli/dist/verbatim.mjs");
let built = false;

export function buildCli(): string {
  if (!built)
    execFileSync(process.execPath, [path.resolve(import.meta.dirname, "../cli/build.mjs")], { stdio: "inherit" });
  built = true;
  return CLI_PATH;
}

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunningCli {
  /** Resolves with the stderr seen so far once it matches `pattern`. */
  waitForStderr(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  interrupt(): void;
  done: Promise<CliRun>;
}

/** Starts `verbatim args…` with exactly `env` (plus PATH and HOME), stdin from `input` when given. */
export function startCli(args: string[], env: Record<string, string | undefined>, input?: string): RunningCli {
  return startProgram(process.execPath, [CLI_PATH, ...args], env, input);
}

function startProgram(
  program: string,
  args: string[],
  env: Record<string, string | undefined>,
  input?: string,
): RunningCli {
  const childEnv: Record<string, string | undefined> = { PATH: process.env.PATH, HOME: process.env.HOME, ...env };
  const child = spawn(program, args, {
    env: childEnv as NodeJS.ProcessEnv,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  const waiters: { pattern: RegExp; resolve: (m: RegExpExecArray) => void }[] = [];
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
    for (const waiter of [...waiters]) {
      const found = waiter.pattern.exec(stderr);
      if (found) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(found);
      }
    }
  });
  child.stdin.end(input ?? "");
  const done = new Promise<CliRun>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return {
    waitForStderr(pattern, timeoutMs = 30_000) {
      const found = pattern.exec(stderr);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`stderr never matched ${pattern}; it was:\n${stderr}`)),
          timeoutMs,
        );
        waiters.push({ pattern, resolve: (m) => (clearTimeout(timer), resolve(m)) });
        void done.then(() => reject(new Error(`the CLI ended before stderr matched ${pattern}; it was:\n${stderr}`)));
      });
    },
    interrupt: () => child.kill("SIGINT"),
    done,
  };
}

export function runCli(args: string[], env: Record<string, string | undefined>, input?: string): Promise<CliRun> {
  return startCli(args, env, input).done;
}

/** Another program (e.g. `script`, to give the CLI a terminal), with the same environment rules. */
export function runProgram(program: string, args: string[], env: Record<string, string | undefined>): Promise<CliRun> {
  return startProgram(program, args, env).done;
}

/** Any ANSI escape (colour, cursor movement, line clearing). */
export const ANSI = /\u001b\[/;
