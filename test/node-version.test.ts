import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// The Node.js versions this project supports (22 from 22.12, the LTS line, and 24; Prisma's own range, which
// leaves out 23) are said in package.json's engines; what installs, builds and runs it elsewhere (the workspaces,
// the lockfile's copy, the Dockerfile, the Node.js CI installs, the README) must agree with it.

const SUPPORTED = "^22.12 || >=24";

const read = (file: string) => readFileSync(file, "utf8");
const engines = (file: string) => (JSON.parse(read(file)) as { engines: { node: string } }).engines.node;

/** Whether "22.23.3" (or "24") is one SUPPORTED allows. */
function supported(version: string): boolean {
  const [major, minor = 0] = version.split(".").map(Number);
  return (major === 22 && minor >= 12) || major >= 24;
}

describe("supported Node.js versions", () => {
  it("are package.json's engines, in the workspaces and in the lockfile too", () => {
    expect(engines("package.json")).toBe(SUPPORTED);
    expect(engines("cli/package.json")).toBe(SUPPORTED);
    expect(engines("client/package.json")).toBe(SUPPORTED);
    const lock = JSON.parse(read("package-lock.json")) as { packages: Record<string, { engines?: { node: string } }> };
    for (const key of ["", "cli", "client"]) expect(lock.packages[key]?.engines?.node).toBe(SUPPORTED);
  });

  it("include the Dockerfile's base image and the Node.js CI installs", () => {
    const image = /^FROM node:(\d+)-/m.exec(read("Dockerfile"))?.[1] ?? "";
    expect(supported(`${image}.99`), `node:${image}`).toBe(true);
    const ci = /^CI_NODE_VERSION=(\S+)$/m.exec(read(".ci/node.sh"))?.[1] ?? "";
    expect(supported(ci), ci).toBe(true);
  });

  it("are the ones README's quickstart asks for", () => {
    const quickstart =
      read("README.md")
        .split(/^## /m)
        .find((part) => part.startsWith("Quickstart\n")) ?? "";
    expect(quickstart).toContain("Node.js 22 (22.12 or newer) or 24");
  });
});
