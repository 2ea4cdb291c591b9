import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, lstatSync, readdirSync, readFileSync } from "node:fs";
import { chmod, mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { DATA_DIR_LOCK_FILE } from "@/lib/db/data-dir-lock";
import { entryArgs, SHORT_LIVED_WASM } from "../../test/entry-bundles";
import { notPrivate } from "../../test/file-modes";
import { seedBuildSnapshot } from "../../test/shared-fixtures";
import { waitUntil, withDeadline } from "../../test/wait";

// One process per data folder, with real processes: each opens the embedded database the way the app does
// (test/fixtures/serve-embedded.ts: its thread, its socket, the folder's lock) and serves until it is stopped.

interface AppProcess {
  child: ChildProcess;
  /** Resolves with the number of migrations the database holds once it serves; rejects if it exits first. */
  serving: Promise<number>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

// A guard against a hang: a test here starts up to three processes one after another, and beside the build in CI
// one start took over a minute.
vi.setConfig({ testTimeout: 6 * 60_000 });

const started: AppProcess[] = [];

/**
 * `built`: the process starts in a folder laid out as `npm run build` leaves an install (the migrations, and the
 * build's database snapshot that a fresh data folder is copied from), as a user's start is. Without it, in the
 * checkout, a fresh folder is made by initdb and every migration, unless the build beside this run has written its
 * snapshot by then.
 */
function startApp(dataDir: string, { built = false } = {}): AppProcess {
  // tsx (where the run made no bundle) by its file: node resolves `--import`'s package from the working folder.
  const tsxImport = pathToFileURL(path.resolve("node_modules/tsx/dist/loader.mjs")).href;
  const child = spawn(
    process.execPath,
    [...SHORT_LIVED_WASM, ...entryArgs("test/fixtures/serve-embedded.ts", { tsxImport })],
    {
      cwd: built ? builtInstall : process.cwd(),
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        TSX_TSCONFIG_PATH: path.resolve("tsconfig.json"),
        DATA_DIR: dataDir,
        // Written into the lock, as the port a running app listens on (nothing listens here).
        PORT: "4321",
        LOG_LEVEL: "warn",
      } as unknown as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal, stderr })),
  );
  const serving = new Promise<number>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /^serving (\d+)$/m.exec(stdout);
      if (match) resolve(Number(match[1]));
    });
    void exited.then(({ code, signal }) =>
      reject(new Error(`exited (${code ?? signal}) before serving: ${stderr.slice(-2000)}`)),
    );
  });
  serving.catch(() => {});
  const app = { child, serving, exited };
  started.push(app);
  return app;
}

async function stop(app: AppProcess): Promise<void> {
  app.child.kill("SIGTERM");
  await withDeadline("the app to stop", app.exited);
}

let root: string;
/** A folder laid out as an install after `npm run build`: prisma/migrations and .next's database snapshot. */
let builtInstall: string;
/** A DATA_DIR longer than a Unix socket's path may be (its socket then goes to the system's temporary folder). */
const longDataDir = (name: string) =>
  path.join(root, "a-data-folder-whose-path-is-longer-than-the-path-of-a-unix-socket-may-be-on-any-system", name);

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "verbatim-lock-"));
  expect(longDataDir("x").length).toBeGreaterThan(100);
  builtInstall = path.join(root, "install");
  await mkdir(builtInstall);
  await symlink(path.resolve("prisma"), path.join(builtInstall, "prisma"));
  await seedBuildSnapshot(path.join(builtInstall, ".next", "verbatim-pglite"));
});
afterEach(async () => {
  for (const app of started.splice(0))
    if (app.child.exitCode === null && app.child.signalCode === null) await stop(app);
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe("one process per data folder", () => {
  it("refuses a second process on a long DATA_DIR: it exits at once naming the folder and the first one's pid", async () => {
    const dataDir = longDataDir("second");
    const first = startApp(dataDir, { built: true });
    const migrations = await withDeadline("the first process to serve", first.serving);
    expect(migrations).toBeGreaterThan(0);

    const second = startApp(dataDir, { built: true });
    const { code, stderr } = await withDeadline("the second process to exit", second.exited);
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(
      `The data folder ${dataDir} is in use by another Verbatim process (pid ${first.child.pid}, port 4321): one process per DATA_DIR. Stop that one, or give this one another DATA_DIR.`,
    );

    // The first still serves, and once it stops cleanly its lock is gone and another start serves.
    await stop(first);
    expect(existsSync(path.join(dataDir, DATA_DIR_LOCK_FILE))).toBe(false);
    expect(await withDeadline("a later process to serve", startApp(dataDir, { built: true }).serving)).toBe(migrations);
  });

  it("lets exactly one of two simultaneous starts on a fresh folder serve; the other exits naming it", async () => {
    const dataDir = longDataDir("simultaneous");
    const apps = [startApp(dataDir, { built: true }), startApp(dataDir, { built: true })];
    const outcomes = await withDeadline(
      "both starts to serve or exit",
      Promise.all(apps.map((app) => Promise.race([app.serving.then(() => "serving" as const), app.exited]))),
    );
    const winner = outcomes.findIndex((outcome) => outcome === "serving");
    expect(winner).not.toBe(-1);
    const loser = outcomes[1 - winner];
    expect(loser).toMatchObject({ code: 1 });
    expect((loser as { stderr: string }).stderr).toContain(
      `The data folder ${dataDir} is in use by another Verbatim process (pid ${apps[winner]!.child.pid}, port 4321)`,
    );
    await stop(apps[winner]!);
    expect(await withDeadline("a later process to serve", startApp(dataDir, { built: true }).serving)).toBeGreaterThan(
      0,
    );
  });

  it("takes over the lock of a process killed with SIGKILL, whose pid is gone", async () => {
    const dataDir = path.join(root, "killed-serving");
    const first = startApp(dataDir, { built: true });
    await withDeadline("the first process to serve", first.serving);
    first.child.kill("SIGKILL");
    await withDeadline("the first process to die", first.exited);
    const lock = JSON.parse(readFileSync(path.join(dataDir, DATA_DIR_LOCK_FILE), "utf8")) as { pid: number };
    expect(lock.pid).toBe(first.child.pid);
    const next = startApp(dataDir, { built: true });
    expect(await withDeadline("the next process to serve", next.serving)).toBeGreaterThan(0);
    expect(JSON.parse(readFileSync(path.join(dataDir, DATA_DIR_LOCK_FILE), "utf8"))).toMatchObject({
      pid: next.child.pid,
    });
  });
});

describe("a start killed with SIGKILL", () => {
  // The moments of a first start on a fresh folder, each seen in the folder. The database is made in a staging
  // folder: by initdb where no build is there, or as a copy of the build's snapshot where `npm test`'s build has
  // already written one (the integration step runs beside the build, so either may happen). The next start is an
  // install's, as a user's is: it finds what the killed one left, or copies the build's snapshot where it left nothing.
  const moments: [string, (dataDir: string) => boolean][] = [
    ["once it holds the lock", (dataDir) => existsSync(path.join(dataDir, DATA_DIR_LOCK_FILE))],
    [
      "while the fresh database is made",
      (dataDir) =>
        existsSync(path.join(dataDir, "pglite.creating")) || existsSync(path.join(dataDir, "pglite.restoring")),
    ],
    ["while the migrations run", (dataDir) => existsSync(path.join(dataDir, "pglite", "PG_VERSION"))],
  ];

  it.each(moments)("%s leaves a folder the next start opens and migrates", async (_moment, reached) => {
    const dataDir = path.join(root, `killed-${_moment.replaceAll(" ", "-")}`);
    const first = startApp(dataDir);
    await waitUntil(`the start to reach the moment (${_moment})`, () => reached(dataDir), { everyMs: 1 });
    first.child.kill("SIGKILL");
    await withDeadline("the killed start to end", first.exited);

    const next = startApp(dataDir, { built: true });
    const migrations = await withDeadline("the next start to serve", next.serving);
    expect(migrations).toBe(
      readdirSync("prisma/migrations", { withFileTypes: true }).filter((e) => e.isDirectory()).length,
    );
  });
});

describe("the data folder's modes", () => {
  it("are this user's alone once a start has opened it, however the folder was made", async () => {
    const dataDir = path.join(root, "modes");
    const first = startApp(dataDir, { built: true });
    await withDeadline("the first start to serve", first.serving);
    expect(notPrivate(path.join(dataDir, "pglite"))).toEqual([]);
    await stop(first);

    // Opened for all (as a copy, a backup or another umask may leave it): private again at the next start.
    const pgliteDir = path.join(dataDir, "pglite");
    await chmod(pgliteDir, 0o777);
    await chmod(path.join(pgliteDir, "PG_VERSION"), 0o666);
    await chmod(path.join(pgliteDir, "global"), 0o755);
    expect(notPrivate(pgliteDir)).not.toEqual([]);
    const second = startApp(dataDir, { built: true });
    await withDeadline("the second start to serve", second.serving);
    expect(notPrivate(pgliteDir)).toEqual([]);
    expect(lstatSync(path.join(dataDir, DATA_DIR_LOCK_FILE)).mode & 0o777).toBe(0o600);
  });
});
