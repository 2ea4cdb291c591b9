import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { run } from "../program";

// `verbatim edit --replace … --with …` against a stand-in server: what the command sends back as the correction
// of a speaker-labelled transcript keeps every line's speaker (word times are the server's to keep).

const transcript = {
  id: "t1",
  segments: [
    {
      start: 0,
      end: 1.5,
      text: "Welcome back, Jon.",
      speaker: "Host",
      words: [
        { start: 0, end: 0.5, text: "Welcome" },
        { start: 0.5, end: 0.8, text: "back," },
        { start: 0.8, end: 1.5, text: "Jon." },
      ],
    },
    { start: 2, end: 4, text: "Good to be here.", speaker: "Jon Smith" },
    { start: 4, end: 6, text: "Jon writes about bread.", speaker: "Host" },
  ],
};

let server: http.Server;
const patches: unknown[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      response.setHeader("content-type", "application/json");
      if (request.method === "PATCH") {
        patches.push(JSON.parse(body));
        response.end(JSON.stringify({ ...transcript, edited: true }));
      } else response.end(JSON.stringify(transcript));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  vi.stubEnv("VERBATIM_BASE_URL", `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  vi.stubEnv("VERBATIM_API_KEY", "vbt_test");
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await new Promise((resolve) => server.close(resolve));
});
afterEach(() => vi.restoreAllMocks());

describe("verbatim edit --replace", () => {
  it("sends every line with its speaker; the changed ones without their old word times", async () => {
    vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    expect(await run(["node", "verbatim", "edit", "t1", "--replace", "Jon", "--with", "John", "--json"])).toBe(0);
    expect(patches).toEqual([
      {
        segments: [
          { start: 0, end: 1.5, text: "Welcome back, John.", speaker: "Host" },
          { start: 2, end: 4, text: "Good to be here.", speaker: "Jon Smith" },
          { start: 4, end: 6, text: "John writes about bread.", speaker: "Host" },
        ],
      },
    ]);
  });
});
