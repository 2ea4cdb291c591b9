import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// Comments say why in plain words. A reference to a numbered ticket points at a tracker that is not in this
// repository, so it tells a reader nothing; a decision worth keeping is a docs/decisions/ record instead, linked
// from the code. ESLint cannot see inside comments by pattern, hence this check over the tracked source files.

const TICKET_REFERENCE = /\bissues? #?\d+/i;

/** `path:line:text` of every line of a tracked .ts, .tsx or .mjs file that git grep finds for `pattern`. */
function grepTracked(pattern: string): string[] {
  try {
    const out = execFileSync("git", ["grep", "-n", "-I", "-i", "-E", pattern, "--", "*.ts", "*.tsx", "*.mjs"], {
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    return out.split("\n").filter(Boolean);
  } catch (error) {
    // git grep exits 1 when nothing matches.
    if ((error as { status?: number }).status === 1) return [];
    throw error;
  }
}

describe("repository hygiene", () => {
  // The two files a newcomer reads first stay short enough to be read whole: the quickstart on a screen or two, the
  // code map on one. What does not fit goes to docs/.
  it("README.md is at most 120 lines and ARCHITECTURE.md at most 80", () => {
    const lines = (file: string) => readFileSync(file, "utf8").trimEnd().split("\n").length;
    expect(lines("README.md")).toBeLessThanOrEqual(120);
    expect(lines("ARCHITECTURE.md")).toBeLessThanOrEqual(80);
  });

  it("no source file refers to a numbered ticket", () => {
    const found = grepTracked("issues? #?[0-9]+").filter((line) =>
      TICKET_REFERENCE.test(line.slice(line.indexOf(":", line.indexOf(":") + 1) + 1)),
    );
    expect(found, "say the why in plain words, or link a docs/decisions/ record").toEqual([]);
  });

  it("the check finds what it looks for", () => {
    expect(TICKET_REFERENCE.test(["see", "issue", "12"].join(" "))).toBe(true);
    expect(TICKET_REFERENCE.test(["Issues", "#3"].join(" "))).toBe(true);
    expect(TICKET_REFERENCE.test("a zod issue's path")).toBe(false);
    // It reads the tracked source files: every one of them imports something.
    expect(grepTracked("^import ").length).toBeGreaterThan(100);
  });

  // The cycle check skips the test and spec files (.oxlintrc.json): a file nothing imports cannot be in a
  // cycle. This keeps it so.
  it("no file imports a test or spec file", () => {
    const found = grepTracked(TEST_MODULE_IMPORT.source).filter((line) => TEST_MODULE_IMPORT.test(line));
    expect(found, "move what both need into a helper that is not a test").toEqual([]);
    // (Each example is joined from two parts so that this file's own lines do not match.)
    expect(TEST_MODULE_IMPORT.test(["import { x } from", '"./media.int.test";'].join(" "))).toBe(true);
    expect(TEST_MODULE_IMPORT.test(["await import(", '"../e2e/all-pages.spec.ts")'].join(""))).toBe(true);
    expect(TEST_MODULE_IMPORT.test(`import { test } from "@playwright/test";`)).toBe(false);
  });
});

const TEST_MODULE_IMPORT = /(from|import\()\s*["'][^"']*\.(test|spec)(\.tsx?)?["']/;
