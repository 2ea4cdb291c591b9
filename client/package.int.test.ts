import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// @verbatim/client as users get it: built, packed with `npm pack`, unpacked into a scratch project's node_modules
// (its two dependencies linked from ours: no registry needed), then a program using it is type-checked (no
// skipLibCheck) and run under each module resolution and module kind. The program also checks that the types are
// real (a @ts-expect-error that `any` would leave unused), that transcribe({wait: false}) gives a Job, and that a
// network failure is a retryable VerbatimError.

const clientDir = fileURLToPath(new URL(".", import.meta.url));
const root = path.resolve(clientDir, "..");
const require = createRequire(import.meta.url);
/** TypeScript 5, which users on node10 resolution still run (TypeScript 7 dropped it), and the native compiler (7). */
const tsc5 = require.resolve("typescript/bin/tsc");
const tsc7 = path.join(path.dirname(require.resolve("typescript-go/package.json")), "bin/tsc");
let scratch: string;
let packed: { filename: string; files: { path: string }[] };
/** What tsc said of the four programs (nothing, when each type-checks). */
let checked = "";

const PROGRAM = `import { createVerbatimClient, VerbatimError, type Job, type Transcript } from "@verbatim/client";

// @ts-expect-error a Transcript is not a number (were the package's types \`any\`, this line would be unused)
export const notANumber: number = {} as Transcript;

const client = createVerbatimClient({
  baseUrl: "http://127.0.0.1:9",
  fetch: async () => {
    throw new TypeError("fetch failed");
  },
});

async function queued(): Promise<Job | Transcript> {
  const result = await client.transcribe("https://example.com/talk.mp3", { source: "audio", wait: false });
  return result.kind === "job" ? result.job : result.transcript;
}

export const srt: (id: string) => Promise<string> = (id) => client.download(id, "srt");

queued().then(
  () => console.log("answered"),
  (error: unknown) =>
    console.log(error instanceof VerbatimError ? \`VerbatimError \${error.code} retryable=\${error.retryable}\` : String(error)),
);
`;

/**
 * resolution × module kind: the tsconfig's module and moduleResolution, and the scratch package's "type". node16
 * is left out: TypeScript resolves a package's exports under it exactly as under nodenext.
 */
const MATRIX = [
  { name: "nodenext-esm", module: "nodenext", resolution: "nodenext", type: "module" },
  { name: "nodenext-cjs", module: "nodenext", resolution: "nodenext", type: "commonjs" },
  { name: "bundler-esm", module: "esnext", resolution: "bundler", type: "module" },
  { name: "node10-cjs", module: "commonjs", resolution: "node10", type: "commonjs" },
] as const;

// A guard against a hang, not a timing: building and packing the client beside the other suites on two cores took
// over three minutes.
vi.setConfig({ hookTimeout: 10 * 60_000 });

beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), "verbatim-client-pack-"));
  execFileSync(process.execPath, [path.join(clientDir, "build.mjs")], { stdio: "pipe" });
  const out = execFileSync("npm", ["pack", "--json", "--pack-destination", scratch], {
    cwd: clientDir,
    encoding: "utf8",
  });
  packed = (JSON.parse(out) as (typeof packed)[])[0];
  const modules = path.join(scratch, "node_modules");
  const unpacked = path.join(modules, "@verbatim", "client");
  mkdirSync(unpacked, { recursive: true });
  const tarball = path.join(scratch, packed.filename);
  execFileSync("tar", ["-xzf", tarball, "--strip-components=1", "-C", unpacked]);
  for (const dependency of ["openapi-fetch", "standardwebhooks"]) {
    symlinkSync(path.join(root, "node_modules", dependency), path.join(modules, dependency));
  }
  for (const { name, module, resolution, type } of MATRIX) {
    const dir = path.join(scratch, name);
    mkdirSync(dir);
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name, private: true, type }));
    writeFileSync(path.join(dir, "index.ts"), PROGRAM);
    writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "es2022",
          lib: ["es2022", "dom"],
          module,
          moduleResolution: resolution,
          strict: true,
          skipLibCheck: false,
          types: [],
          outDir: "out",
          ...(resolution === "node10" ? { ignoreDeprecations: "5.0" } : {}),
        },
        files: ["index.ts"],
      }),
    );
  }
  // One tsc for each compiler's programs (build mode: it parses TypeScript's own lib files once, not once a
  // program): node10 under TypeScript 5, the others under the native compiler, a tenth of its CPU.
  for (const [compiler, programs] of [
    [tsc5, MATRIX.filter((m) => m.resolution === "node10")],
    [tsc7, MATRIX.filter((m) => m.resolution !== "node10")],
  ] as const) {
    try {
      execFileSync(process.execPath, [compiler, "-b", ...programs.map((m) => m.name)], {
        cwd: scratch,
        encoding: "utf8",
      });
    } catch (error) {
      checked += (error as { stdout?: string }).stdout ?? String(error);
    }
  }
});

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe("@verbatim/client, packed", () => {
  it("ships every file its package.json names, and no lifecycle script", () => {
    const shipped = new Set(packed.files.map((file) => file.path));
    const manifest = JSON.parse(
      readFileSync(path.join(scratch, "node_modules/@verbatim/client/package.json"), "utf8"),
    ) as {
      main: string;
      types: string;
      exports: unknown;
      scripts?: Record<string, string>;
    };
    const named = [manifest.main, manifest.types, ...JSON.stringify(manifest.exports).matchAll(/"\.\/([^"]+)"/g)].map(
      (entry) => (typeof entry === "string" ? entry : entry[1]).replace(/^\.\//, ""),
    );
    for (const file of named) expect(shipped, file).toContain(file);
    for (const hook of ["prepare", "prepack", "preinstall", "install", "postinstall"]) {
      expect(manifest.scripts ?? {}, hook).not.toHaveProperty(hook);
    }
  });

  it.each(MATRIX)("type-checks and runs under $name", ({ name, type }) => {
    const dir = path.join(scratch, name);
    // tsc's diagnostics name the file they are in, relative to the scratch project: none may be this program's,
    // nor the package's own (node_modules/@verbatim/client/…, checked in every program: no skipLibCheck).
    const others = MATRIX.map((m) => `${m.name}/`).filter((prefix) => prefix !== `${name}/`);
    expect(
      checked
        .split("\n")
        .filter((line) => line.trim() !== "" && !others.some((prefix) => line.startsWith(prefix)))
        .join("\n"),
      name,
    ).toBe("");
    if (type === "commonjs") writeFileSync(path.join(dir, "out", "package.json"), JSON.stringify({ type }));
    expect(existsSync(path.join(dir, "out", "index.js"))).toBe(true);
    const ran = execFileSync(process.execPath, [path.join(dir, "out", "index.js")], { encoding: "utf8" });
    expect(ran.trim(), name).toBe("VerbatimError network_error retryable=true");
  });
});
