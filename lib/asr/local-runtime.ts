/**
 * Where the local recogniser's runtime is: whisper.cpp's prebuilt Node module for this platform, one of
 * the exact-version optionalDependencies in package.json (@fugood/node-whisper-linux-x64, -linux-arm64,
 * -darwin-arm64, -darwin-x64). npm installs only the one matching this machine and skips the others, so
 * `npm install` never fails where there is none: then the local recogniser is unavailable and says why.
 * Only the path is looked up here; the native code is loaded in the child process alone.
 *
 * GPU (ASR_LOCAL_GPU): the package's maintainers publish GPU builds of the same module as variants,
 * `@fugood/node-whisper-<platform>-<arch>-cuda` and `-vulkan` (Linux and Windows; their own loader picks
 * `<package>-<variant>` and falls back to the plain one). They are large and useless without the GPU, so
 * they are not dependencies: an operator with a GPU installs one, same version as the plain build
 * (`npm install --no-save @fugood/node-whisper-linux-x64-cuda@1.1.1`). The plain macOS arm64 build uses
 * Metal. `auto` takes an installed CUDA build where an NVIDIA driver is loaded, else an installed Vulkan
 * build where a GPU render node exists, else Metal on Apple silicon, else the CPU; `cuda`/`vulkan` ask
 * for that build (the CPU, with a note, when it is not installed); `off` is always the CPU.
 */
import { existsSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

export type GpuSetting = "auto" | "cuda" | "vulkan" | "off";
export type Accelerator = "cpu" | "metal" | "cuda" | "vulkan";

export type LocalRuntime =
  | {
      available: true;
      package: string;
      bindingPath: string;
      accelerator: Accelerator;
      /** whisper.cpp's useGpu for this build. */
      useGpu: boolean;
      /** Why the asked-for GPU is not used, when it is not. */
      note: string | null;
    }
  | { available: false; package: string; reason: string };

/** What the choice depends on (the real machine in localRuntime, made up in tests). */
export interface RuntimeMachine {
  platform: NodeJS.Platform;
  arch: string;
  /** The native module of an installed package, or null (not installed, or broken). */
  binding(pkg: string): string | null;
  /** An NVIDIA driver is loaded (/dev/nvidiactl, /proc/driver/nvidia). */
  nvidia: boolean;
  /** A GPU render node exists (/dev/dri/renderD*), which Vulkan drivers use. */
  renderNode: boolean;
}

/** The runtime for `gpu` on `machine`. Pure: the choice logic, unit-tested. */
export function chooseRuntime(gpu: GpuSetting, machine: RuntimeMachine): LocalRuntime {
  const base = `@fugood/node-whisper-${machine.platform}-${machine.arch}`;
  const plain = machine.binding(base);
  const cpu = (note: string | null = null): LocalRuntime =>
    plain
      ? { available: true, package: base, bindingPath: plain, accelerator: "cpu", useGpu: false, note }
      : {
          available: false,
          package: base,
          reason: `local speech recognition has no runtime for ${machine.platform}-${machine.arch} (${base} is not installed)`,
        };
  if (gpu === "off") return cpu();

  if (machine.platform === "darwin") {
    const note = gpu === "auto" ? null : `ASR_LOCAL_GPU=${gpu}: there is no ${gpu} build for macOS`;
    if (machine.arch === "arm64" && plain)
      return { available: true, package: base, bindingPath: plain, accelerator: "metal", useGpu: true, note };
    return cpu(note);
  }

  const variant = (kind: "cuda" | "vulkan"): LocalRuntime | null => {
    const binding = machine.binding(`${base}-${kind}`);
    return binding
      ? {
          available: true,
          package: `${base}-${kind}`,
          bindingPath: binding,
          accelerator: kind,
          useGpu: true,
          note: null,
        }
      : null;
  };
  if (gpu === "auto")
    return (machine.nvidia ? variant("cuda") : null) ?? (machine.renderNode ? variant("vulkan") : null) ?? cpu();
  return (
    variant(gpu) ??
    cpu(
      `ASR_LOCAL_GPU=${gpu} but ${base}-${gpu} is not installed (npm install --no-save ${base}-${gpu}@<the version of ${base}>): recognising on the CPU`,
    )
  );
}

function installedBinding(pkg: string): string | null {
  try {
    const require = createRequire(path.join(process.cwd(), "package.json"));
    const bindingPath = path.join(path.dirname(require.resolve(`${pkg}/package.json`)), "index.node");
    return existsSync(bindingPath) ? bindingPath : null;
  } catch {
    return null;
  }
}

function hasRenderNode(): boolean {
  try {
    return readdirSync("/dev/dri").some((name) => name.startsWith("renderD"));
  } catch {
    return false;
  }
}

const cached = new Map<GpuSetting, LocalRuntime>();

/** The runtime package for this platform (and GPU setting) and where its native module is. */
export function localRuntime(gpu: GpuSetting = "auto"): LocalRuntime {
  let runtime = cached.get(gpu);
  if (!runtime) {
    runtime = chooseRuntime(gpu, {
      platform: process.platform,
      arch: process.arch,
      binding: installedBinding,
      nvidia: existsSync("/dev/nvidiactl") || existsSync("/proc/driver/nvidia/version"),
      renderNode: hasRenderNode(),
    });
    cached.set(gpu, runtime);
  }
  return runtime;
}
