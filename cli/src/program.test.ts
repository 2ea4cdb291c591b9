import { afterEach, describe, expect, it, vi } from "vitest";
import { version } from "../package.json";
import { run } from "./program";

// The program's own flags, as a person types them: -v is the version (node, npm, pnpm, yarn, deno), and
// --color/--no-color are accepted before or after the command.

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, "write").mockImplementation((chunk) => (out.push(String(chunk)), true));
  vi.spyOn(process.stderr, "write").mockImplementation((chunk) => (err.push(String(chunk)), true));
  return { out, err };
}

afterEach(() => vi.restoreAllMocks());

describe("verbatim's global flags", () => {
  it("-v and --version print the version", async () => {
    for (const flag of ["-v", "--version"]) {
      const { out } = capture();
      expect(await run(["node", "verbatim", flag])).toBe(0);
      expect(out.join("")).toBe(`${version}\n`);
      vi.restoreAllMocks();
    }
  });

  it("--color colours an error into a pipe, --no-color does not, on either side of the command", async () => {
    const colored = capture();
    expect(await run(["node", "verbatim", "--color", "languages"])).toBe(2);
    expect(colored.err.join("")).toMatch(/^\u001b\[31merror:/);
    vi.restoreAllMocks();
    const plain = capture();
    expect(await run(["node", "verbatim", "languages", "--no-color"])).toBe(2);
    expect(plain.err.join("")).toMatch(/^error: missing required argument 'url'/);
  });
});
