import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type FakePotProvider, startFakePotProvider } from "@/test/fakes/pot-provider/server";

import { PotError, createPotProvider, withPoToken } from "./pot";

let fake: FakePotProvider;
beforeAll(async () => {
  fake = await startFakePotProvider();
});
afterAll(async () => {
  await fake.close();
});

describe("PO tokens from the bgutil provider's HTTP API", () => {
  it("mints once per video, shares concurrent mints, and mints again after the token expires", async () => {
    let now = Date.now();
    const pot = createPotProvider({ baseUrl: `${fake.url}/`, now: () => now });
    const [a, b] = await Promise.all([pot.tokenFor("aaaaaaaaaaa"), pot.tokenFor("aaaaaaaaaaa")]);
    expect(a).toBe(b);
    expect(a).toBe(fake.issued.get("aaaaaaaaaaa"));
    expect(await pot.tokenFor("aaaaaaaaaaa")).toBe(a);
    await pot.tokenFor("bbbbbbbbbbb");
    expect(pot.minted).toBe(2);
    expect(fake.calls.slice(-2)).toEqual([{ content_binding: "aaaaaaaaaaa" }, { content_binding: "bbbbbbbbbbb" }]);
    now += 6 * 3_600_000; // past expiresAt (less the margin)
    await pot.tokenFor("aaaaaaaaaaa");
    expect(pot.minted).toBe(3);
  });

  it("a failing or absent provider is a PotError", async () => {
    fake.fail = true;
    try {
      await expect(createPotProvider({ baseUrl: fake.url }).tokenFor("ccccccccccc")).rejects.toThrow(PotError);
    } finally {
      fake.fail = false;
    }
    await expect(
      createPotProvider({ baseUrl: "http://127.0.0.1:9", timeoutMs: 2_000 }).tokenFor("ddddddddddd"),
    ).rejects.toThrow(/did not answer/);
  });

  it("withPoToken appends pot, potc=1 and c", () => {
    const url = withPoToken(new URL("https://www.youtube.com/api/timedtext?v=x&exp=xpe&lang=en"), "TOKEN", "WEB");
    expect(url.search).toBe("?v=x&exp=xpe&lang=en&pot=TOKEN&potc=1&c=WEB");
  });
});
