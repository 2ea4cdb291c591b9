import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { filesKey, probeRecordFile, recallProbe, recordProbe } from "./probe-record";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "verbatim-probe-record-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const FINDINGS = { header: { version: "2026.08.19", jsRuntimes: ["deno-2.9.6"], optionalLibraries: [] } };

describe("probeRecordFile", () => {
  it("keeps a record only for the project's own yt-dlp, in its .venv", () => {
    expect(probeRecordFile(path.join(dir, ".venv", "bin", "yt-dlp"), dir)).toBe(
      path.join(dir, ".venv", "ytdlp-probe.json"),
    );
    expect(probeRecordFile("/usr/local/bin/yt-dlp", dir)).toBeNull();
    expect(probeRecordFile("yt-dlp", dir)).toBeNull();
  });
});

describe("filesKey", () => {
  it("changes when a file is rewritten, touched, added or removed", () => {
    const file = path.join(dir, "yt-dlp");
    const missing = filesKey([file]);
    writeFileSync(file, "#!/bin/sh\n");
    const written = filesKey([file]);
    expect(written).not.toBe(missing);
    expect(filesKey([file])).toBe(written);
    utimesSync(file, new Date("2026-01-01T00:00:00Z"), new Date("2026-01-01T00:00:00Z"));
    const touched = filesKey([file]);
    expect(touched).not.toBe(written);
    writeFileSync(file, "#!/bin/sh\necho 2026.11.01\n");
    expect(filesKey([file])).not.toBe(touched);
    expect(filesKey([file, null])).not.toBe(filesKey([file]));
  });
});

describe("recallProbe and recordProbe", () => {
  const file = () => path.join(dir, "ytdlp-probe.json");

  it("recalls what was recorded under the same key while it is young enough", () => {
    recordProbe(file(), "key-1", FINDINGS, 1_000);
    expect(recallProbe(file(), "key-1", 600_000, 1_000 + 600_000)).toEqual(FINDINGS);
    expect(recallProbe(file(), "key-1", 600_000, 1_000 + 600_001)).toBeNull();
    expect(recallProbe(file(), "key-2", 600_000, 2_000)).toBeNull();
    // A clock set back before the record does not make it new.
    expect(recallProbe(file(), "key-1", 600_000, 999)).toBeNull();
  });

  it("recalls nothing from a missing or damaged record, and leaves no partial file", () => {
    expect(recallProbe(file(), "key-1", 600_000)).toBeNull();
    writeFileSync(file(), '{"key":"key-1","at":');
    expect(recallProbe(file(), "key-1", 600_000)).toBeNull();
    recordProbe(file(), "key-1", FINDINGS);
    expect(readdirSync(dir)).toEqual(["ytdlp-probe.json"]);
  });

  it("records nothing where the folder cannot be written, and does not throw", () => {
    const absent = path.join(dir, "absent", "ytdlp-probe.json");
    expect(() => recordProbe(absent, "key-1", FINDINGS)).not.toThrow();
    expect(recallProbe(absent, "key-1", 600_000)).toBeNull();
    mkdirSync(path.join(dir, "absent"));
    recordProbe(absent, "key-1", FINDINGS);
    expect(recallProbe(absent, "key-1", 600_000)).toEqual(FINDINGS);
  });
});
