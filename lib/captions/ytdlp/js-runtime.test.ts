import { describe, expect, it } from "vitest";

import { denoBinary, denoEnv, denoPlatformPackage, jsRuntimeArgs } from "./js-runtime";
import { BASE_ARGS, buildArgs } from "./run";

describe("deno for yt-dlp", () => {
  it("comes from the npm platform package deno ships for this machine", () => {
    expect(denoPlatformPackage("linux", "x64")).toBe("@deno/linux-x64-glibc");
    expect(denoPlatformPackage("linux", "arm64")).toBe("@deno/linux-arm64-glibc");
    expect(denoPlatformPackage("darwin", "arm64")).toBe("@deno/darwin-arm64");
    expect(denoPlatformPackage("linux", "riscv64")).toBeNull();
    expect(denoPlatformPackage("freebsd", "x64")).toBeNull();
    // Installed here (an optionalDependency of the project).
    expect(denoBinary()).toMatch(/node_modules\/(@deno\/[^/]+|deno)\/deno(\.exe)?$/);
  });

  it("is handed to yt-dlp as its only runtime, after the safety flags and before the proxy", () => {
    expect(jsRuntimeArgs("/app/deno")).toEqual(["--no-js-runtimes", "--js-runtimes", "deno:/app/deno"]);
    expect(jsRuntimeArgs(null)).toEqual(["--no-js-runtimes"]);
    expect(buildArgs(["-J"], { deno: "/app/deno", proxyUrl: "http://127.0.0.1:9", url: "https://youtu.be/x" })).toEqual(
      [
        ...BASE_ARGS,
        "--no-js-runtimes",
        "--js-runtimes",
        "deno:/app/deno",
        "--proxy",
        "http://127.0.0.1:9",
        "-J",
        "--",
        "https://youtu.be/x",
      ],
    );
    // yt-dlp never fetches the solver's code itself.
    expect(BASE_ARGS).toContain("--no-remote-components");
  });

  it("reads the solver's packages from the project's cache, with no update check or prompt", () => {
    expect(denoEnv("/app")).toEqual({ DENO_DIR: "/app/.venv/deno", DENO_NO_UPDATE_CHECK: "1", DENO_NO_PROMPT: "1" });
  });
});
