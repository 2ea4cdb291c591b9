import { Command, CommanderError, Option } from "commander";
import { version } from "../package.json";
import { keyRegenerate, keyShow, openDashboard, DASHBOARD_PAGES } from "./commands/account";
import { login, logout, whoami } from "./commands/auth";
import { get } from "./commands/get";
import { importFeed, resolvePodcast } from "./commands/podcasts";
import { publish, unpublish } from "./commands/publishing";
import { search } from "./commands/search";
import { history, job, languages } from "./commands/transcripts";
import { webhooksDeliveries, webhooksList, webhooksTest } from "./commands/webhooks";
import { createContext, type Context } from "./context";
import { CliError, EXIT } from "./errors";
import { isInteractive } from "./output";

const FORMATS = ["text", "txt", "srt", "vtt", "md", "markdown", "json"];
const PLATFORMS = ["youtube", "x", "tiktok", "facebook", "instagram", "rednote", "vimeo", "upload", "podcast"];

const examples = (...lines: string[]) => `\nExamples:\n${lines.map((line) => `  $ ${line}`).join("\n")}\n`;

type Action = (ctx: Context, ...args: never[]) => Promise<number>;

/** Every command's action: a context from the global and own options, the command's exit code. */
function action(fn: Action) {
  return async (...args: unknown[]) => {
    const command = args[args.length - 1] as Command;
    const options = command.optsWithGlobals<{ json?: boolean; baseUrl?: string }>();
    const ctx = await createContext(options);
    // commander passes (positional…, options, command); our functions take (ctx, positional…, options).
    process.exitCode = await (fn as (...a: unknown[]) => Promise<number>)(ctx, ...args.slice(0, -1));
  };
}

function withJson(command: Command): Command {
  return command.option("--json", "print the result as JSON on stdout (messages and progress stay on stderr)");
}

export function buildProgram(): Command {
  const program = new Command("verbatim");
  program
    .description("Timestamped transcripts of videos, podcasts and audio files, from Verbatim.")
    .version(version, "-v, --version")
    .addOption(new Option("--base-url <url>", "the Verbatim server (default: the one you logged in to, else http://localhost:3000)").env("VERBATIM_BASE_URL"))
    .configureHelp({ showGlobalOptions: true })
    .exitOverride()
    .addHelpText(
      "after",
      examples("verbatim login", "verbatim get https://www.youtube.com/watch?v=dQw4w9WgXcQ", "verbatim get talk.mp3 --format srt -o talk.srt", "verbatim history --platform youtube") +
        "\nEnvironment:\n  VERBATIM_API_KEY   an API key (vbt_…); takes precedence over `verbatim login`\n  VERBATIM_BASE_URL  the server, as --base-url\n  NO_COLOR           no colour and no progress bars\n" +
        "\nExit codes: 0 ok, 1 other error, 2 usage, 3 not logged in or not allowed, 4 allowance used up, 5 not found, 6 server or platform failed.\n",
    );
  // The Option's env() reads VERBATIM_BASE_URL itself; config.ts resolves it again when no flag was given.

  withJson(program.command("login"))
    .description("Log in with your browser (device login): shows a code to approve, then stores the login")
    .option("--no-browser", "do not open the browser; print the link only")
    .addHelpText("after", examples("verbatim login", "verbatim login --base-url https://verbatim.example.com --no-browser"))
    .action(action(login as Action));

  withJson(program.command("logout"))
    .description("Log out: the stored login is revoked on the server and deleted here")
    .addHelpText("after", examples("verbatim logout"))
    .action(action(logout as Action));

  withJson(program.command("whoami"))
    .description("Who you are logged in as, your tier, and this period's usage")
    .addHelpText("after", examples("verbatim whoami", "verbatim whoami --json | jq .usage.used_seconds"))
    .action(action(whoami as Action));

  withJson(program.command("get"))
    .description("Transcribe links or local audio/video files (uploaded), waiting for speech recognition when needed")
    .argument("<url|file...>", "links or files; - reads them from stdin, one a line")
    .option("-l, --lang <lang>", "language of the transcript", "en")
    .addOption(new Option("-f, --format <format>", "output format").choices(FORMATS).default("text"))
    .option("-o, --output <file>", "write to this file (a folder when several inputs are given) instead of stdout")
    .option("-c, --concurrency <n>", "how many inputs are transcribed at once", "3")
    .addHelpText(
      "after",
      examples(
        "verbatim get https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        "verbatim get https://youtu.be/dQw4w9WgXcQ --lang de --format srt -o talk.de.srt",
        "verbatim get interview.m4a --format vtt > interview.vtt",
        "cat links.txt | verbatim get - -o transcripts/",
        "verbatim get https://youtu.be/dQw4w9WgXcQ --json | jq '.segments[0]'",
      ) + "\nWith --json: the transcript object; with several inputs an array of {input, transcript} or {input, error}.\n",
    )
    .action(action(get as Action));

  withJson(program.command("job"))
    .description("Wait for a transcription job and print its transcript (resume after Ctrl-C in `get`)")
    .argument("<id>", "the job id `get` printed")
    .addOption(new Option("-f, --format <format>", "output format").choices(FORMATS).default("text"))
    .option("-o, --output <file>", "write the transcript to this file instead of stdout")
    .option("--no-wait", "show the job's state now instead of waiting")
    .addHelpText("after", examples("verbatim job 9f1c2d3e-…", "verbatim job 9f1c2d3e-… --no-wait --json"))
    .action(action(job as Action));

  withJson(program.command("languages"))
    .description("Caption languages a link has")
    .argument("<url>", "a video link")
    .addHelpText("after", examples("verbatim languages https://www.youtube.com/watch?v=dQw4w9WgXcQ"))
    .action(action(languages as Action));

  withJson(program.command("history"))
    .description("Your past transcriptions, newest first")
    .option("-q, --q <text>", "only video ids containing this text")
    .addOption(new Option("--platform <platform>", "only this platform").choices(PLATFORMS))
    .addOption(new Option("--state <state>", "only this state").choices(["done", "in_progress", "error"]))
    .addOption(new Option("--sort <field>", "sort by").choices(["created_at", "duration_seconds", "total_seconds"]))
    .addOption(new Option("--order <order>", "sort order").choices(["asc", "desc"]))
    .option("-n, --limit <n>", "how many (1-100)", "20")
    .option("--offset <n>", "skip this many", "0")
    .addHelpText("after", examples("verbatim history", "verbatim history --platform podcast --state done -n 50", "verbatim history --json | jq -r '.transcriptions[].video_id'"))
    .action(action(history as Action));

  withJson(program.command("search"))
    .description("Search what was said in your transcripts: the moments, with their time and a snippet")
    .argument("<query>", 'words (any form), "a phrase", -exclude, OR')
    .addOption(new Option("--platform <platform>", "only this platform").choices(PLATFORMS))
    .option("-l, --lang <lang>", "only transcripts in this language")
    .option("-n, --limit <n>", "how many moments (1-50)", "20")
    .option("--cursor <cursor>", "the next page (printed after a full page)")
    .addHelpText("after", examples('verbatim search "growth mindset"', 'verbatim search \'"suez crisis" -film\' --lang en', "verbatim search 比特币 --json | jq -r '.results[].links.source'"))
    .action(action(search as Action));

  withJson(program.command("publish"))
    .description("Publish a transcript from your history on a public page; prints its link")
    .argument("<url>", "the link the transcript was made from")
    .option("-l, --lang <lang>", "its language", "en")
    .addHelpText("after", examples("verbatim publish https://www.youtube.com/watch?v=dQw4w9WgXcQ"))
    .action(action(publish as Action));

  withJson(program.command("unpublish"))
    .description("Take a published transcript off its public page")
    .argument("<slug>", "the last part of its /t/<slug> link")
    .addHelpText("after", examples("verbatim unpublish how-bread-rises-x7k2"))
    .action(action(unpublish as Action));

  const podcast = program.command("podcast").description("Podcasts: resolve a feed, an Apple Podcasts link or an episode").addHelpText("after", examples("verbatim podcast resolve https://feeds.example.com/show.xml"));
  withJson(podcast.command("resolve"))
    .description("A podcast feed, Apple Podcasts link or audio URL: the show and its episodes")
    .argument("<url>", "feed, Apple Podcasts or audio link")
    .option("-n, --limit <n>", "episodes of a feed to list (1-500)", "100")
    .option("--offset <n>", "skip this many episodes (newest first)", "0")
    .addHelpText("after", examples("verbatim podcast resolve https://podcasts.apple.com/us/podcast/id1200361736", "verbatim podcast resolve https://feeds.example.com/show.xml --offset 100 --json"))
    .action(action(resolvePodcast as Action));

  withJson(program.command("import"))
    .description("Transcribe a whole podcast feed, YouTube playlist or channel, following it with a progress bar")
    .argument("<url>", "feed, Apple Podcasts show, or YouTube playlist/channel link")
    .option("--no-wait", "start it and return")
    .addHelpText("after", examples("verbatim import https://feeds.example.com/show.xml", "verbatim import https://www.youtube.com/playlist?list=PL… --no-wait"))
    .action(action(importFeed as Action));

  const key = program.command("key").description("Your API key").addHelpText("after", examples("verbatim key show", "verbatim key regenerate --yes"));
  withJson(key.command("show"))
    .description("Show your API key's prefix, creation date and tier (the key itself is shown only when made)")
    .addHelpText("after", examples("verbatim key show"))
    .action(action(keyShow as Action));
  withJson(key.command("regenerate"))
    .description("Make a new API key; the old one stops working at once. Prints the new key")
    .option("-y, --yes", "do not ask for confirmation")
    .addHelpText("after", examples("verbatim key regenerate", "export VERBATIM_API_KEY=$(verbatim key regenerate --yes)"))
    .action(action(keyRegenerate as Action));

  const webhooks = withJson(program.command("webhooks"))
    .description("Your webhook endpoints (add them in the dashboard: verbatim open webhooks)")
    .addHelpText("after", examples("verbatim webhooks", "verbatim webhooks test <id>", "verbatim webhooks deliveries <id> --json"))
    .action(action(webhooksList as Action));
  withJson(webhooks.command("test"))
    .description("Send a webhook.test event to an endpoint")
    .argument("<id>", "the endpoint's id (from `verbatim webhooks`)")
    .action(action(webhooksTest as Action));
  withJson(webhooks.command("deliveries"))
    .description("An endpoint's recent deliveries: event, status, answer, attempts, webhook-id")
    .argument("<id>", "the endpoint's id")
    .action(action(webhooksDeliveries as Action));

  withJson(program.command("open"))
    .description("Open the dashboard in your browser")
    .addArgument(new Command().createArgument("[page]", "which page").choices(DASHBOARD_PAGES).default("dashboard"))
    .option("--no-browser", "print the link instead")
    .addHelpText("after", examples("verbatim open", "verbatim open billing"))
    .action(action(openDashboard as Action));

  return program;
}

/** Parses argv, runs the command, and answers its exit code; errors are one line on stderr. */
export async function run(argv: string[]): Promise<number> {
  const program = buildProgram();
  const red = (text: string) => (isInteractive() ? `\u001b[31m${text}\u001b[39m` : text);
  program.configureOutput({ outputError: (text, write) => write(red(text)) });
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
