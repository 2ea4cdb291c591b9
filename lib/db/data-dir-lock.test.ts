import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  acquireDataDirLock,
  DATA_DIR_LOCK_FILE,
  DataDirLocked,
  dataDirHolder,
  isDataDirLocked,
} from "@/lib/db/data-dir-lock";

// The data folder's lock in one process; two real processes meet in data-dir-lock.int.test.ts.

let dataDir: string;
beforeEach(() => void (dataDir = mkdtempSync(path.join(os.tmpdir(), "verbatim-lock-unit-"))));
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const lockFile = () => path.join(dataDir, DATA_DIR_LOCK_FILE);
const plant = (holder: object) => writeFileSync(lockFile(), JSON.stringify(holder));
/** A pid that was a process of this machine's and is gone. */
const deadPid = () => spawnSync(process.execPath, ["-e", ""]).pid!;

describe("the data folder's lock", () => {
  it("names this process, its port and machine, and is gone once released", async () => {
    const lock = await acquireDataDirLock(dataDir, { port: 4321 });
    expect(JSON.parse(readFileSync(lockFile(), "utf8"))).toMatchObject({
      pid: process.pid,
      port: 4321,
      hostname: os.hostname(),
    });
    expect(await dataDirHolder(dataDir)).toMatchObject({ pid: process.pid, port: 4321 });
    await lock.release();
    expect(existsSync(lockFile())).toBe(false);
    expect(await dataDirHolder(dataDir)).toBeNull();
  });

  it("is refused while another running process holds it, with the sentence naming the folder and that process", async () => {
    plant({ pid: process.ppid, port: 3000, hostname: os.hostname(), since: new Date().toISOString() });
    const refused = await acquireDataDirLock(dataDir).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DataDirLocked);
    expect(isDataDirLocked(refused)).toBe(true);
    expect((refused as Error).message).toBe(
      `The data folder ${dataDir} is in use by another Verbatim process (pid ${process.ppid}, port 3000): one process per DATA_DIR. Stop that one, or give this one another DATA_DIR.`,
    );
    // Left as it was.
    expect(JSON.parse(readFileSync(lockFile(), "utf8"))).toMatchObject({ pid: process.ppid });
  });

  it("is refused while a process of another machine holds it (a shared folder), naming that machine", async () => {
    plant({ pid: 1, hostname: "elsewhere.example", since: new Date().toISOString() });
    await expect(acquireDataDirLock(dataDir)).rejects.toThrow(/\(pid 1 on elsewhere\.example\)/);
  });

  it("is taken over from a process that is gone, from one whose pid now belongs to another process, and from a file that is no lock", async () => {
    const stale = [
      { pid: deadPid(), hostname: os.hostname(), since: "2026-01-01T00:00:00.000Z" },
      // The pid is running, but it is not the process that took the lock: its start time differs.
      { pid: process.ppid, hostname: os.hostname(), processStart: "1", since: "2026-01-01T00:00:00.000Z" },
    ];
    for (const holder of os.platform() === "linux" ? stale : stale.slice(0, 1)) {
      plant(holder);
      expect(await dataDirHolder(dataDir)).toBeNull();
      const lock = await acquireDataDirLock(dataDir);
      expect(JSON.parse(readFileSync(lockFile(), "utf8"))).toMatchObject({ pid: process.pid });
      await lock.release();
    }
    writeFileSync(lockFile(), "not json");
    await (await acquireDataDirLock(dataDir)).release();
    expect(existsSync(lockFile())).toBe(false);
  });

  it("is taken again by the process that holds it (its database thread started again)", async () => {
    await acquireDataDirLock(dataDir);
    const again = await acquireDataDirLock(dataDir);
    expect(JSON.parse(readFileSync(lockFile(), "utf8"))).toMatchObject({ pid: process.pid });
    await again.release();
    expect(existsSync(lockFile())).toBe(false);
  });

  it("is released only while it is still this lock: a lock taken over since is left alone", async () => {
    const lock = await acquireDataDirLock(dataDir);
    plant({ pid: process.ppid, hostname: os.hostname(), since: new Date().toISOString() });
    await lock.release();
    expect(JSON.parse(readFileSync(lockFile(), "utf8"))).toMatchObject({ pid: process.ppid });
  });
});
