import { describe, expect, it } from "vitest";

import { chooseRuntime, localRuntime, type RuntimeMachine } from "./local-runtime";

function machine(installed: string[], over: Partial<RuntimeMachine> = {}): RuntimeMachine {
  return {
    platform: "linux",
    arch: "x64",
    binding: (pkg) => (installed.includes(pkg) ? `/nm/${pkg}/index.node` : null),
    nvidia: false,
    renderNode: false,
    ...over,
  };
}

const CPU = "@fugood/node-whisper-linux-x64";
const CUDA = `${CPU}-cuda`;
const VULKAN = `${CPU}-vulkan`;

describe("ASR_LOCAL_GPU: which whisper.cpp build runs", () => {
  it("auto: the CUDA build where an NVIDIA driver is loaded and the build is installed", () => {
    expect(chooseRuntime("auto", machine([CPU, CUDA, VULKAN], { nvidia: true, renderNode: true }))).toEqual({
      available: true,
      package: CUDA,
      bindingPath: `/nm/${CUDA}/index.node`,
      accelerator: "cuda",
      useGpu: true,
      note: null,
    });
  });

  it("auto: else the Vulkan build where a GPU render node exists, else the CPU", () => {
    expect(chooseRuntime("auto", machine([CPU, CUDA, VULKAN], { renderNode: true }))).toMatchObject({
      package: VULKAN,
      accelerator: "vulkan",
      useGpu: true,
    });
    // An NVIDIA driver but only the Vulkan build installed: Vulkan runs on it too.
    expect(chooseRuntime("auto", machine([CPU, VULKAN], { nvidia: true, renderNode: true }))).toMatchObject({
      accelerator: "vulkan",
    });
    // A GPU build installed on a machine without that GPU: the CPU, silently (auto asked for nothing).
    expect(chooseRuntime("auto", machine([CPU, CUDA]))).toMatchObject({
      package: CPU,
      accelerator: "cpu",
      useGpu: false,
      note: null,
    });
    expect(chooseRuntime("auto", machine([CPU], { nvidia: true, renderNode: true }))).toMatchObject({
      accelerator: "cpu",
      note: null,
    });
  });

  it("cuda/vulkan: that build, or the CPU with a note naming the package to install", () => {
    expect(chooseRuntime("vulkan", machine([CPU, VULKAN]))).toMatchObject({ package: VULKAN, useGpu: true });
    const fallback = chooseRuntime("cuda", machine([CPU]));
    expect(fallback).toMatchObject({ available: true, package: CPU, accelerator: "cpu", useGpu: false });
    expect(fallback.available && fallback.note).toMatch(
      /ASR_LOCAL_GPU=cuda but @fugood\/node-whisper-linux-x64-cuda is not installed.*npm install --no-save/,
    );
    // A GPU build alone, without the plain one, still runs.
    expect(chooseRuntime("cuda", machine([CUDA]))).toMatchObject({ available: true, package: CUDA });
  });

  it("off: the CPU even with a GPU build and its GPU present", () => {
    expect(chooseRuntime("off", machine([CPU, CUDA], { nvidia: true }))).toMatchObject({
      package: CPU,
      useGpu: false,
      accelerator: "cpu",
    });
  });

  it("macOS: Metal from the plain build on Apple silicon; no CUDA or Vulkan builds", () => {
    const mac = (arch: string) => machine([`@fugood/node-whisper-darwin-${arch}`], { platform: "darwin", arch });
    expect(chooseRuntime("auto", mac("arm64"))).toMatchObject({ accelerator: "metal", useGpu: true, note: null });
    expect(chooseRuntime("off", mac("arm64"))).toMatchObject({ accelerator: "cpu", useGpu: false });
    expect(chooseRuntime("cuda", mac("arm64"))).toMatchObject({
      accelerator: "metal",
      note: "ASR_LOCAL_GPU=cuda: there is no cuda build for macOS",
    });
    expect(chooseRuntime("auto", mac("x64"))).toMatchObject({ accelerator: "cpu", useGpu: false });
  });

  it("no build at all: unavailable, saying for which platform", () => {
    const none = chooseRuntime("auto", machine([], { arch: "riscv64" }));
    expect(none).toEqual({
      available: false,
      package: "@fugood/node-whisper-linux-riscv64",
      reason: expect.stringMatching(/no runtime for linux-riscv64/),
    });
  });

  it("on this machine (no GPU): the CPU build npm installed", () => {
    expect(localRuntime("auto")).toMatchObject({ available: true, accelerator: "cpu", useGpu: false });
  });
});
