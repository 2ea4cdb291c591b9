import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STATIC_MODEL_FILES } from "@/lib/embeddings/static-model";
import { STATIC_MEANING_PROFILE } from "@/lib/embeddings/meaning-profile";
import { bertTokenizerJson, SPECIAL } from "@/test/fakes/model-host/tiny-sentence-model";
import { safetensors } from "@/test/fakes/model-host/safetensors";
import { staticEmbedder } from "./kinds/static";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "static-embedder-"));
  await writeFile(
    path.join(dir, STATIC_MODEL_FILES.matrix),
    safetensors([...SPECIAL.map(() => [1, 1]), [1, 0], [0, 1]], "F32"),
  );
  await writeFile(path.join(dir, STATIC_MODEL_FILES.tokenizer), bertTokenizerJson([...SPECIAL, "cat", "rocket"]));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("a static model as the embedder", () => {
  it("embeds passages and queries with the model in the folder, under an identity of its file", async () => {
    const embedder = staticEmbedder(dir);
    expect(embedder.model).toMatch(/^model2vec\/static-embedder-\w+\/\d+-\d+$/);
    expect(embedder.profile).toBe(STATIC_MEANING_PROFILE);
    expect(await embedder.ready()).toBe(true);
    const [cat, nothing] = await embedder.embed(["cat", "zebra"]);
    expect([...cat!]).toEqual([1, 0]);
    expect(nothing).toBeNull();
    expect([...(await embedder.embedQuery("rocket"))!]).toEqual([0, 1]);
    expect(await staticEmbedder(path.join(dir, "absent")).ready()).toBe(false);
  });
});
