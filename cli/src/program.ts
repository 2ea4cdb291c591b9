import { Command, CommanderError, Option } from "commander";
import { version } from "../package.json";
import { examples } from "./command";
import { registerAlerts } from "./commands/alerts";
import { registerBatch } from "./commands/batch";
import { registerEdit } from "./commands/edit";
import { registerExport } from "./commands/export";
import { registerGet } from "./commands/get";
import { registerHistory } from "./commands/history";
import { registerFollow } from "./commands/follow";
import { registerImport } from "./commands/import";
import { registerRetryImport } from "./commands/retry-import";
import { registerJob } from "./commands/job";
import { registerKey } from "./commands/key";
import { registerLanguages } from "./commands/languages";
import { registerLogin } from "./commands/login";
import { registerLogout } from "./commands/logout";
import { registerOpen } from "./commands/open";
import { registerPodcast } from "./commands/podcast";
import { registerPublish } from "./commands/publish";
import { registerSearch } from "./commands/search";
import { registerUnpublish } from "./commands/unpublish";
import { registerWebhooks } from "./commands/webhooks";
import { registerWhoami } from "./commands/whoami";
import { CliError, EXIT } from "./errors";
import { wantsColor } from "./output";

// The program and its global options; each command defines itself (options, help, action) in ./commands/.
// They are listed in `verbatim --help` in this order.
const COMMANDS = [
  registerLogin,
  registerLogout,
  registerWhoami,
  registerGet,
  registerEdit,
  registerJob,
  registerLanguages,
  registerHistory,
  registerSearch,
  registerExport,
  registerPublish,
  registerUnpublish,
  registerPodcast,
  registerImport,
  registerRetryImport,
  registerBatch,
  registerFollow,
  registerAlerts,
  registerKey,
  registerWebhooks,
  registerOpen,
];

const paint = (colored: boolean) => (text: string) => (colored ? `\u001b[31m${text}\u001b[39m` : text);

export function buildProgram(red = paint(wantsColor())): Command {
  const program = new Command("verbatim");
  program
    .description("Timestamped transcripts of videos, podcasts and audio files, from Verbatim.")
    // -v is the version, as in node, npm, pnpm, yarn and deno (commander's own default is -V).
    .version(version, "-v, --version")
    .option("--color", "colour the output even when it is not a terminal (as FORCE_COLOR=1)")
    .option("--no-color", "no colour (as NO_COLOR=1)")
    .addOption(
      new Option(
        "--base-url <url>",
        "the Verbatim server (default: the one you logged in to, else http://localhost:3000)",
      ).env("VERBATIM_BASE_URL"),
    )
    .configureHelp({ showGlobalOptions: true })
    .configureOutput({ outputError: (text, write) => write(red(text)) })
    .exitOverride()
    .addHelpText(
      "after",
      examples(
        "verbatim login",
        "verbatim get https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        "verbatim get talk.mp3 --format srt -o talk.srt",
        "verbatim history --platform youtube",
      ) +
        "\nEnvironment:\n  VERBATIM_API_KEY   an API key (vbt_…); takes precedence over `verbatim login`\n  VERBATIM_BASE_URL  the server, as --base-url\n  NO_COLOR           no colour and no progress bars\n  FORCE_COLOR        colour even into a pipe (0 or false: none); --color and --no-color win over both\n" +
        "\nExit codes: 0 ok, 1 other error, 2 usage, 3 not logged in or not allowed, 4 allowance used up, 5 not found, 6 server or platform failed.\n",
    );
  // The Option's env() reads VERBATIM_BASE_URL itself; config.ts resolves it again when no flag was given.
  for (const register of COMMANDS) register(program);
  return program;
}

/** Parses argv, runs the command, and answers its exit code; errors are one line on stderr. */
export async function run(argv: string[]): Promise<number> {
  const red = paint(wantsColor(process.env, argv));
  const program = buildProgram(red);
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === "number" ? process.exitCode : EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    if (error instanceof CliError) {
      process.stderr.write(`${red("error:")} ${error.message}\n`);
      return error.exitCode;
    }
    process.stderr.write(`${red("error:")} ${(error as Error).message ?? String(error)}\n`);
    return EXIT.other;
  }
}
