import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseEnv } from "@/lib/env";
import {
  isLoopbackHost,
  isLoopbackNetworkLine,
  listenHost,
  listenPort,
  nodeVersionProblem,
  supportedNode,
  withImport,
} from "./start-rules.mjs";

const nextUtils = createRequire(import.meta.url)("next/dist/server/lib/utils") as {
  getParsedNodeOptions(): Record<string, unknown>;
  formatNodeOptions(args: Record<string, unknown>): { nodeOptions: string };
};

// What `npm start` decides before Next.js loads (scripts/start.mjs): the Node.js version, and the address.

describe("the Node.js check", () => {
  it("allows package.json's engines (^22.12 || >=24) and nothing else", () => {
    for (const version of ["22.12.0", "v22.21.1", "24.0.0", "25.2.1"])
      expect(supportedNode(version), version).toBe(true);
    for (const version of ["20.20.2", "v20.9.0", "22.11.0", "23.11.1", "18.20.8"])
      expect(supportedNode(version), version).toBe(false);
  });

  it("stops with a sentence naming the supported versions and the one running", () => {
    expect(nodeVersionProblem("22.12.0")).toBeNull();
    const said = nodeVersionProblem("v20.20.2")!;
    expect(said).toContain("Node.js 22 (22.12 or newer) or 24");
    expect(said).toContain("this is Node.js 20.20.2");
  });
});

describe("the address npm start listens on", () => {
  it("is loopback while the development login is on at a loopback APP_URL", () => {
    expect(listenHost({})).toBe("127.0.0.1");
    expect(listenHost({ PORT: "4000", DATABASE_URL: "" })).toBe("127.0.0.1");
    expect(listenHost({ APP_URL: "http://127.0.0.1:3000" })).toBe("127.0.0.1");
    expect(listenHost({ APP_URL: "http://[::1]:3000" })).toBe("::1");
    expect(
      listenHost({ APP_URL: "http://localhost:3000", AUTH_DEV_LOGIN: "true", DATABASE_URL: "postgres://x/y" }),
    ).toBe("127.0.0.1");
  });

  it("is every interface (Next.js's default) without the development login, or at a non-loopback APP_URL", () => {
    expect(listenHost({ DATABASE_URL: "postgres://db/verbatim" })).toBeNull();
    expect(listenHost({ AUTH_DEV_LOGIN: "false" })).toBeNull();
    expect(listenHost({ APP_URL: "https://verbatim.example.com" })).toBeNull();
    expect(listenHost({ APP_URL: "http://192.168.1.20:3000", AUTH_DEV_LOGIN: "true" })).toBeNull();
  });

  it("is HOSTNAME whenever it is set", () => {
    expect(listenHost({ HOSTNAME: "0.0.0.0" })).toBe("0.0.0.0");
    expect(listenHost({ HOSTNAME: "::", DATABASE_URL: "postgres://db/verbatim" })).toBe("::");
    expect(listenHost({ HOSTNAME: "" })).toBe("127.0.0.1");
  });

  it("follows lib/env's rules for the development login and a loopback address", () => {
    const cases: Record<string, string>[] = [
      {},
      { APP_URL: "http://127.9.9.9:3000" },
      { APP_URL: "http://[::ffff:127.0.0.1]:3000" },
      { APP_URL: "http://[::ffff:10.0.0.1]:3000" },
      { APP_URL: "http://10.0.0.1:3000" },
      { APP_URL: "http://localhost.example.com" },
      { DATABASE_URL: "postgres://db/v", AUTH_SECRET: "s".repeat(32) },
      { DATABASE_URL: "postgres://db/v", AUTH_SECRET: "s".repeat(32), AUTH_DEV_LOGIN: "yes" },
      { AUTH_DEV_LOGIN: "off" },
      { AUTH_DEV_LOGIN: "" },
    ];
    for (const vars of cases) {
      const settings = parseEnv(vars);
      const loopback = isLoopbackHost(new URL(settings.APP_URL).hostname);
      expect(listenHost(vars) !== null, JSON.stringify(vars)).toBe(settings.devLogin && loopback);
    }
  });
});

describe("the port npm start writes into the data folder's lock", () => {
  it("is -p or --port as Next.js reads them, else PORT, else 3000", () => {
    expect(listenPort([], {})).toBe(3000);
    expect(listenPort([], { PORT: "4000" })).toBe(4000);
    expect(listenPort(["-p", "4100"], { PORT: "4000" })).toBe(4100);
    expect(listenPort(["--port", "4200"], {})).toBe(4200);
    expect(listenPort(["--port=4300"], {})).toBe(4300);
    expect(listenPort(["-p4400"], {})).toBe(4400);
    expect(listenPort([], { PORT: "not a port" })).toBe(3000);
  });
});

describe("Next.js's start lines", () => {
  it("lose the Network line for a loopback address, and keep every other", () => {
    for (const line of [
      "- Network:       http://127.0.0.1:3000",
      "- Network:       http://localhost:3000",
      "- Network:       http://[::1]:3000",
    ])
      expect(isLoopbackNetworkLine(line), line).toBe(true);
    for (const line of [
      "- Network:       http://192.168.1.20:3000",
      "- Local:         http://127.0.0.1:3000",
      "✓ Ready in 1.2s",
      undefined,
    ])
      expect(isLoopbackNetworkLine(line), String(line)).toBe(false);
  });

  it("lose it in `next dev`'s server process too, which takes NODE_OPTIONS as Next.js passes them on", () => {
    const quiet = pathToFileURL(path.resolve("scripts/quiet-network-line.mjs")).href;
    const options = withImport("--max-http-header-size=16384", quiet);
    expect(withImport(options, quiet)).toBe(options);
    // What next dev hands its forked server (next/dist/cli/next-dev.js: parsed, then formatted again).
    const saved = process.env.NODE_OPTIONS;
    process.env.NODE_OPTIONS = options;
    let passed: string;
    try {
      passed = nextUtils.formatNodeOptions(nextUtils.getParsedNodeOptions()).nodeOptions;
    } finally {
      if (saved === undefined) delete process.env.NODE_OPTIONS;
      else process.env.NODE_OPTIONS = saved;
    }
    const printed = execFileSync(
      process.execPath,
      [
        "-e",
        `for (const host of ["127.0.0.1", "192.168.1.20"]) console.log("- Network:       http://" + host + ":3000")`,
      ],
      { env: { ...process.env, NODE_OPTIONS: passed }, encoding: "utf8" },
    );
    expect(printed).toBe("- Network:       http://192.168.1.20:3000\n");
  });
});
