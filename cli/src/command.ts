import type { Command } from "commander";
import { createContext, type Context } from "./context";

// What every command file uses to define itself: its --json flag, its examples, and an action that gets a
// context (server, credential, output) and answers the command's exit code.

export const examples = (...lines: string[]) => `\nExamples:\n${lines.map((line) => `  $ ${line}`).join("\n")}\n`;

export function withJson(command: Command): Command {
  return command.option("--json", "print the result as JSON on stdout (messages and progress stay on stderr)");
}

/** Wraps `fn(ctx, positional…, options)` as commander's action `(positional…, options, command)`. */
export function action<A extends unknown[]>(fn: (ctx: Context, ...args: A) => Promise<number>) {
  return async (...args: unknown[]) => {
    const command = args[args.length - 1] as Command;
    const ctx = await createContext(command.optsWithGlobals<{ json?: boolean; baseUrl?: string }>());
    process.exitCode = await fn(ctx, ...(args.slice(0, -1) as A));
  };
}
