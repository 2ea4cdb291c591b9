// The one fetcher of pinned model files against a fake model host on a local port (Range → 206 or, when told,
// ignored; cut connections; wrong bytes), through the real outbound module, in one process and in two at once.
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createOutbound } from "@/lib/http/outbound";
import { startFakeModelHost, type FakeModelHost } from "@/test/fakes/model-host/server";
import { fetchPinnedFile, PinnedFileError, type PinnedFile } from "./pinned-file";

const run = promisify(execFile);
const content = randomBytes(2 * 1024 * 1024);
const FILE = "model.bin";
const outbound = createOutbound({ allowPrivateFor: (h) => h === "127.0.0.1" });

let host: FakeModelHost;
let dir: string;
let pinned: PinnedFile;
let target: string;

beforeAll(async () => {
  host = await startFakeModelHost(FILE, content);
  pinned = {
    url: `${host.baseUrl}/${FILE}`,
    bytes: content.length,
    sha256: createHash("sha256").update(content).digest("hex"),
  };
});
afterAll(async () => {
  await host?.close();
  await outbound.close();
});
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "pinned-file-"));
  target = path.join(dir, "models", FILE);
  host.requests.length = 0;
  host.serve(content);
  host.slow(0);
  host.ignoreRange(false);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const fetchIt = (options: { deadlineMs?: number } = {}) =>
  fetchPinnedFile(pinned, target, { outbound, deadline: Date.now() + (options.deadlineMs ?? 60_000) });
const failure = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PinnedFileError);
  return error as PinnedFileError;
};

describe("a pinned model file", () => {
  it("cut midway: what arrived is kept, the next fetch asks for the rest (Range) and the file checks out", async () => {
    host.cutNextAfter(512 * 1024);
    expect((await failure(fetchIt())).failure).toBe("cut");
    const kept = statSync(`${target}.part`).size;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThanOrEqual(512 * 1024);
    expect(existsSync(target)).toBe(false);

    expect(await fetchIt()).toBe(target);
    expect(host.requests.map((r) => r.range)).toEqual([null, `bytes=${kept}-`]);
    expect(readFileSync(target).equals(content)).toBe(true);
    expect(existsSync(`${target}.part`)).toBe(false);
    expect(existsSync(`${target}.lock`)).toBe(false);
    // In place now: no further request.
    await fetchIt();
    expect(host.requests).toHaveLength(2);
  });

  it("a host that ignores the range sends it whole: the part starts again and the file still checks out", async () => {
    host.cutNextAfter(512 * 1024);
    await failure(fetchIt());
    const kept = statSync(`${target}.part`).size;
    host.ignoreRange(true);
    expect(await fetchIt()).toBe(target);
    expect(host.requests.map((r) => r.range)).toEqual([null, `bytes=${kept}-`]);
    expect(readFileSync(target).equals(content)).toBe(true);
    expect(host.bytesSent()).toBeGreaterThanOrEqual(kept + content.length);
  });

  it("wrong bytes: rejected with both checksums, and neither the part nor the file is left", async () => {
    host.serve(randomBytes(content.length));
    const error = await failure(fetchIt());
    expect(error.failure).toBe("mismatch");
    expect(error.message).toContain(pinned.sha256);
    expect(existsSync(`${target}.part`)).toBe(false);
    expect(existsSync(target)).toBe(false);
    // A good host afterwards: fetched whole, from the start.
    host.serve(content);
    expect(readFileSync(await fetchIt()).equals(content)).toBe(true);
    expect(host.requests.map((r) => r.range)).toEqual([null, null]);
  });

  it("a wrong part left by a resume is rejected too, not renamed into place", async () => {
    host.cutNextAfter(512 * 1024);
    await failure(fetchIt());
    // The part's bytes are not the file's: resumed, the whole does not match.
    const kept = statSync(`${target}.part`).size;
    writeFileSync(`${target}.part`, randomBytes(kept));
    expect((await failure(fetchIt())).failure).toBe("mismatch");
    expect(existsSync(target)).toBe(false);
    expect(existsSync(`${target}.part`)).toBe(false);
  });

  it("no such file on the host: unreachable (another attempt will not help)", async () => {
    const error = await failure(
      fetchPinnedFile({ ...pinned, url: `${host.baseUrl}/absent.bin` }, target, {
        outbound,
        deadline: Date.now() + 60_000,
      }),
    );
    expect(error.failure).toBe("unreachable");
    expect(error.message).toContain("404");
  });

  it("two calls at once in one process: one download, both get the file", async () => {
    const [a, b] = await Promise.all([fetchIt(), fetchIt()]);
    expect([a, b]).toEqual([target, target]);
    expect(host.requests).toHaveLength(1);
    expect(readFileSync(target).equals(content)).toBe(true);
  });

  it("two processes at once: one download, both get the file", async () => {
    host.slow(50); // a slow line, so the second process finds the first one's lock
    const child = path.resolve("test/fakes/model-host/fetch-pinned-child.ts");
    const args = JSON.stringify({ pinned, target });
    const tsx = path.resolve("node_modules/.bin/tsx");
    const [a, b] = await Promise.all([run(tsx, [child, args]), run(tsx, [child, args])]);
    expect(a.stdout.trim()).toBe(target);
    expect(b.stdout.trim()).toBe(target);
    expect(host.requests).toHaveLength(1);
    expect(readFileSync(target).equals(content)).toBe(true);
  });

  it("a lock left by a process that died (not refreshed) is taken over; a live one is waited on until the deadline", async () => {
    const lock = `${target}.lock`;
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(lock, "12345\n");
    expect((await failure(fetchIt({ deadlineMs: 600 }))).failure).toBe("deadline");
    expect(existsSync(target)).toBe(false);
    const past = new Date(Date.now() - 10 * 60_000);
    utimesSync(lock, past, past);
    expect(readFileSync(await fetchIt()).equals(content)).toBe(true);
    expect(existsSync(lock)).toBe(false);
  });
});
