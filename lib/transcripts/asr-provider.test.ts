import { afterEach, describe, expect, it, vi } from "vitest";

// ASR_PROVIDER: which recogniser each combination of settings gives, and what /health then says.

const SETTINGS = [
  "ASR_PROVIDER",
  "ASSEMBLYAI_API_KEY",
  "ASR_OPENAI_BASE_URL",
  "ASR_LOCAL_MODEL",
  "ASR_LOCAL_MODEL_PATH",
  "ASR_WEBHOOK_BASE_URL",
];
const saved = Object.fromEntries(SETTINGS.map((name) => [name, process.env[name]]));

afterEach(() => {
  for (const name of SETTINGS) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

async function statusWith(settings: Record<string, string>) {
  for (const name of SETTINGS) delete process.env[name];
  Object.assign(process.env, settings);
  vi.resetModules();
  const { asrProvider, asrStatus } = await import("./asr-provider");
  return { provider: asrProvider(), status: asrStatus() };
}

describe("ASR_PROVIDER", () => {
  it("auto: AssemblyAI when its key is set, else the OpenAI-compatible server, else local whisper.cpp with the default model", async () => {
    const both = await statusWith({ ASSEMBLYAI_API_KEY: "key", ASR_OPENAI_BASE_URL: "http://127.0.0.1:9" });
    expect(both.status).toEqual({ provider: "assemblyai", model: null, reason: null });
    expect(both.provider?.name).toBe("assemblyai");

    const openai = await statusWith({ ASR_OPENAI_BASE_URL: "http://127.0.0.1:9" });
    expect(openai.status).toEqual({ provider: "openai", model: "whisper-1", reason: null });
    expect(openai.provider?.name).toBe("openai-compatible");

    // The runtime is an optional dependency installed on this platform (linux-x64 here).
    const local = await statusWith({});
    expect(local.status).toEqual({ provider: "local", model: "base-q5_1", reason: null, accelerator: "cpu" });
    expect(local.provider?.name).toBe("local:base-q5_1");
  });

  it("an explicit choice wins over auto's order; a choice without its setting is off, saying why", async () => {
    expect(
      (
        await statusWith({
          ASR_PROVIDER: "openai",
          ASSEMBLYAI_API_KEY: "key",
          ASR_OPENAI_BASE_URL: "http://127.0.0.1:9",
        })
      ).provider?.name,
    ).toBe("openai-compatible");
    expect((await statusWith({ ASR_PROVIDER: "local", ASSEMBLYAI_API_KEY: "key" })).provider?.name).toBe(
      "local:base-q5_1",
    );
    const off = await statusWith({ ASR_PROVIDER: "off", ASSEMBLYAI_API_KEY: "key" });
    expect(off).toEqual({ provider: null, status: { provider: "off", model: null, reason: "ASR_PROVIDER=off" } });
    const noKey = await statusWith({ ASR_PROVIDER: "assemblyai" });
    expect(noKey.provider).toBeNull();
    expect(noKey.status.reason).toContain("ASSEMBLYAI_API_KEY");
  });

  it("local: an operator-placed file names the model; an unknown model name is off, saying which exist", async () => {
    const placed = await statusWith({ ASR_PROVIDER: "local", ASR_LOCAL_MODEL_PATH: "/models/ggml-small-q8_0.bin" });
    expect(placed.status).toEqual({ provider: "local", model: "small-q8_0", reason: null, accelerator: "cpu" });
    expect(placed.provider?.name).toBe("local:small-q8_0");
    const unknown = await statusWith({ ASR_PROVIDER: "local", ASR_LOCAL_MODEL: "huge" });
    expect(unknown.provider).toBeNull();
    expect(unknown.status.reason).toMatch(/ASR_LOCAL_MODEL "huge" is not one of base-q5_1, base, tiny-q5_1, tiny/);
  });
});
