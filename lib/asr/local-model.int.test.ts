import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createOutbound } from "@/lib/http/outbound";
import { startFakeModelHost, type FakeModelHost } from "@/test/fakes/model-host/server";
import { ensureModel, type LocalModelInfo } from "./local-model";
import { AsrError } from "./types";

// The local model's download against a fake of the model host (Range → 206, cut connections, wrong
// bytes), through the real outbound module, in this process and in two processes at once.

const run = promisify(execFile);
const content = randomBytes(3 * 1024 * 1024);
const info: LocalModelInfo = {
  file: "ggml-test.bin",
  bytes: content.length,
  sha256: createHash("sha256").update(content).digest("hex"),
};
const outbound = createOutbound({ allowPrivateFor: (h) => h === "127.0.0.1" });

let host: FakeModelHost;
let dir: string;

beforeAll(async () => {
  host = await startFakeModelHost(info.file, content);
});
afterAll(async () => {
  await host?.close();
  await outbound.close();
});
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "verbatim-models-"));
  host.requests.length = 0;
  host.serve(content);
  host.slow(0);
});

const ensure = (onProgress?: (f: number) => void) =>
  ensureModel({ name: "test", dir, baseUrl: host.baseUrl, info, outbound, onProgress });

describe("the local model download", () => {
  it("cut mid-way: the error says the next attempt resumes; it asks for the rest (Range) and the file checks out", async () => {
    host.cutNextAfter(1024 * 1024);
    const first = await ensure().catch((e: unknown) => e);
    expect(first).toBeInstanceOf(AsrError);
    expect((first as AsrError).retryable).toBe(true);
    expect((first as AsrError).message).toMatch(/connection was cut.*resumes/);
    expect(existsSync(path.join(dir, `${info.file}.part`))).toBe(true);
    // What reached the disk before the cut (bytes still in flight in the socket or the write stream when the
    // connection dropped are simply asked for again): the resume starts exactly there.
    const kept = statSync(path.join(dir, `${info.file}.part`)).size;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThanOrEqual(1024 * 1024);

    const progress: number[] = [];
    const file = await ensure((f) => progress.push(f));
    expect(host.requests.map((r) => r.range)).toEqual([null, `bytes=${kept}-`]);
    expect(readFileSync(file).equals(content)).toBe(true);
    expect(progress[0]).toBeCloseTo(kept / content.length, 1);
    expect(progress.at(-1)).toBe(1);
    expect(existsSync(path.join(dir, `${info.file}.part`))).toBe(false);
    // Present now: no further request.
    await ensure();
    expect(host.requests).toHaveLength(2);
  });

  it("wrong bytes (checksum mismatch): a clear error, and no partial or final file kept", async () => {
    host.serve(randomBytes(content.length));
    const error = (await ensure().catch((e: unknown) => e)) as AsrError;
    expect(error).toBeInstanceOf(AsrError);
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("is not the expected file");
    expect(error.message).toContain(info.sha256);
    expect(existsSync(path.join(dir, `${info.file}.part`))).toBe(false);
    expect(existsSync(path.join(dir, info.file))).toBe(false);
  });

  it("host unreachable: asr_model_missing, not retried, and the error names ASR_LOCAL_MODEL_PATH and npm run model:download", async () => {
    const error = (await ensureModel({ name: "test", dir, baseUrl: "http://127.0.0.1:9", info, outbound }).catch(
      (e: unknown) => e,
    )) as AsrError;
    expect(error).toBeInstanceOf(AsrError);
    expect(error.code).toBe("asr_model_missing");
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("ASR_LOCAL_MODEL_PATH");
    expect(error.message).toContain("npm run model:download");
  });

  it("two processes needing it at the same moment: one download, both get the file", async () => {
    host.slow(100); // ~2 s on the wire, so the second process finds the first one's lock
    const child = path.resolve("test/fakes/model-host/ensure-model-child.ts");
    const args = JSON.stringify({ dir, baseUrl: host.baseUrl, info });
    const tsx = path.resolve("node_modules/.bin/tsx");
    const [a, b] = await Promise.all([run(tsx, [child, args]), run(tsx, [child, args])]);
    expect(a.stdout.trim()).toBe(path.join(dir, info.file));
    expect(b.stdout.trim()).toBe(path.join(dir, info.file));
    expect(host.requests).toHaveLength(1);
    expect(host.bytesSent()).toBeGreaterThanOrEqual(content.length);
    expect(readFileSync(path.join(dir, info.file)).equals(content)).toBe(true);
    rmSync(dir, { recursive: true, force: true });
  });
});
