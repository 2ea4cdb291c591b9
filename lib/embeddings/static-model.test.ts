import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bertTokenizerJson, SPECIAL } from "@/test/fakes/model-host/tiny-sentence-model";
import { safetensors } from "@/test/fakes/model-host/safetensors";
import { cosine } from "./embed";
import { readSafetensorsMatrix, STATIC_MODEL_FILES, StaticModel } from "./static-model";

const WORDS = ["cat", "kitten", "rocket", "engine", "##s"];
const VOCABULARY = [...SPECIAL, ...WORDS];
// Special tokens point everywhere, so a vector that counted them would lean their way.
const ROWS = [...SPECIAL.map(() => [2, 2, 2]), [1, 0, 0], [1, 0.5, 0], [0, 0, 1], [0, 0.5, 1], [0, 1, 0]];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "static-model-"));
  await writeFile(path.join(dir, STATIC_MODEL_FILES.matrix), safetensors(ROWS, "F32"));
  await writeFile(path.join(dir, STATIC_MODEL_FILES.tokenizer), bertTokenizerJson(VOCABULARY));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("a static model in Model2Vec's format", () => {
  it("reads the safetensors matrix, float32 and float16", () => {
    for (const dtype of ["F32", "F16"] as const) {
      const matrix = readSafetensorsMatrix(safetensors(ROWS, dtype));
      expect([matrix.rows, matrix.dims]).toEqual([ROWS.length, 3]);
      expect([...matrix.values.subarray(6 * 3, 7 * 3)]).toEqual([1, 0.5, 0]);
    }
    expect(() => readSafetensorsMatrix(Buffer.from("nope"))).toThrow(/safetensors/);
  });

  it("embeds a text as the unit mean of its tokens' rows, without special or unknown tokens", async () => {
    const model = await StaticModel.load(dir);
    expect(model.dims).toBe(3);
    const cat = model.embed("Cat")!;
    expect([...cat]).toEqual([1, 0, 0]);
    // "cats" is cat + ##s; "zebra" is unknown and counts for nothing.
    const cats = model.embed("cats zebra")!;
    expect(cats[0]).toBeCloseTo(Math.SQRT1_2, 5);
    expect(cats[1]).toBeCloseTo(Math.SQRT1_2, 5);
    expect(cosine(model.embed("cat kitten")!, model.embed("rocket engine")!)).toBeLessThan(0.2);
    expect(model.embed("zebra")).toBeNull();
    expect(model.checksum).toMatch(/^[0-9a-f]{64}$/);
  });
});
