#!/usr/bin/env node
// A stand-in for the yt-dlp binary in unit tests (the integration tests run the real one). Behaviour is
// chosen through environment variables, which runYtDlp passes with its `env` option:
//
//   FAKE_YTDLP_MODE=info    print FAKE_YTDLP_INFO (a fixture path) with the placeholder origin replaced by
//                           FAKE_YTDLP_ORIGIN, exit 0
//   FAKE_YTDLP_MODE=args    print {"argv": [...], "env": {...}} as JSON, exit 0
//   FAKE_YTDLP_MODE=fail    print FAKE_YTDLP_STDERR on stderr, exit FAKE_YTDLP_EXIT (default 1)
//   FAKE_YTDLP_MODE=hang    start a grandchild that sleeps, write both pids to FAKE_YTDLP_PIDFILE, sleep
//   FAKE_YTDLP_MODE=flood   write stdout without end
//   FAKE_YTDLP_MODE=garbage print something that is not JSON, exit 0
//
// With FAKE_YTDLP_ARGSFILE set, every mode first writes its argv there as JSON.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

const mode = process.env.FAKE_YTDLP_MODE ?? "args";
const argv = process.argv.slice(2);
if (process.env.FAKE_YTDLP_ARGSFILE) writeFileSync(process.env.FAKE_YTDLP_ARGSFILE, JSON.stringify(argv));

switch (mode) {
  case "info": {
    const text = readFileSync(process.env.FAKE_YTDLP_INFO, "utf8");
    const origin = process.env.FAKE_YTDLP_ORIGIN;
    process.stdout.write(origin ? text.split("https://ytdlp-fixtures.invalid").join(origin) : text);
    break;
  }
  case "args":
    process.stdout.write(JSON.stringify({ argv, env: process.env }));
    break;
  case "fail":
    process.stderr.write(process.env.FAKE_YTDLP_STDERR ?? "ERROR: something went wrong\n");
    process.exitCode = Number(process.env.FAKE_YTDLP_EXIT ?? 1);
    break;
  case "hang": {
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 600000)"], { stdio: "ignore" });
    writeFileSync(process.env.FAKE_YTDLP_PIDFILE, JSON.stringify([process.pid, child.pid]));
    setTimeout(() => {}, 600000);
    break;
  }
  case "flood": {
    const chunk = "x".repeat(64 * 1024);
    const write = () => {
      while (process.stdout.write(chunk)) {
        /* keep going */
      }
      process.stdout.once("drain", write);
    };
    write();
    break;
  }
  case "garbage":
    process.stdout.write("<html>not json</html>");
    break;
  default:
    process.stderr.write(`fake-yt-dlp: unknown mode ${mode}\n`);
    process.exitCode = 2;
}
