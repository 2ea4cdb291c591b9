import { lstatSync } from "node:fs";
import { chmod, mkdir, mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/** The socket's name in its folder, as libpq and pg look for it (`host` is the folder). */
const SOCKET_NAME = ".s.PGSQL.5432";
/** The longest socket path every supported system takes (sun_path is 104 bytes on macOS, 108 on Linux). */
const SOCKET_PATH_MAX = 100;

/**
 * Where the embedded database is served: `DATA_DIR/socket/.s.PGSQL.5432`, in a folder of mode 0700, so no
 * other user of the machine reaches the database; where that path is too long for a socket, in a fresh 0700
 * folder in the system's temporary folder.
 */
export async function embeddedSocketPath(dataDir: string): Promise<string> {
  const folder = path.join(dataDir, "socket");
  if (path.join(folder, SOCKET_NAME).length > SOCKET_PATH_MAX)
    return path.join(await mkdtemp(path.join(os.tmpdir(), "verbatim-db-")), SOCKET_NAME);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const stat = lstatSync(folder);
  if (!stat.isDirectory() || (process.getuid && stat.uid !== process.getuid()))
    throw new Error(`${folder} must be a folder of this user's: the embedded database's socket goes there`);
  await chmod(folder, 0o700);
  return path.join(folder, SOCKET_NAME);
}
