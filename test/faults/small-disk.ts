// A small disk under one folder, without mounting one (the suite runs as any user, and mount(8) needs root):
// writes through a FileHandle (what lib/uploads/receive-upload.ts writes with) to a file under the folder
// that would take the folder past its size write what fits, then fail as the kernel fails a write to a
// full filesystem, with ENOSPC. Everything else about the file system is real. Linux: the file a handle
// writes to is read from /proc/self/fd.
import { readdirSync, readlinkSync, statSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/** Bytes in the files under `dir`. */
function usedBytes(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((sum, entry) => {
    const full = path.join(dir, entry.name);
    return sum + (entry.isDirectory() ? usedBytes(full) : entry.isFile() ? statSync(full).size : 0);
  }, 0);
}

function noSpace(): NodeJS.ErrnoException {
  return Object.assign(new Error("ENOSPC: no space left on device, write"), {
    errno: -os.constants.errno.ENOSPC,
    code: "ENOSPC",
    syscall: "write",
  });
}

/** Limits the folder `dir` to `sizeBytes` until the returned function is called. */
export async function limitDiskSpace(dir: string, sizeBytes: number): Promise<() => void> {
  const probe = await open(process.execPath, "r");
  const prototype = Object.getPrototypeOf(probe) as FileHandle;
  await probe.close();
  const write = prototype.write;
  const root = path.resolve(dir) + path.sep;

  prototype.write = async function (this: FileHandle, data: unknown, ...rest: unknown[]) {
    const file = readlinkSync(`/proc/self/fd/${this.fd}`);
    if (!file.startsWith(root) || !ArrayBuffer.isView(data))
      return (write as (...args: unknown[]) => unknown).call(this, data, ...rest);
    const [offset = 0, length = data.byteLength - Number(offset)] = rest as [number?, number?];
    const room = sizeBytes - usedBytes(root);
    if (room <= 0) throw noSpace();
    return (write as (...args: unknown[]) => unknown).call(
      this,
      data,
      offset,
      Math.min(length, room),
      ...rest.slice(2),
    );
  } as FileHandle["write"];
  return () => {
    prototype.write = write;
  };
}
