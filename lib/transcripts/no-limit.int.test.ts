import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, useTestDatabase } from "@/test/app-db";
import { StaticCaptionProvider } from "@/test/fakes/static-captions";
import type { TranscriptDeps } from "@/lib/transcripts/deps";
import { transcriptRequestSchema } from "@/lib/transcripts/schemas";
import { createOutbound } from "@/lib/http/outbound";

// On someone's own server (billing off, no allowance set) a 71-minute video is
// transcribed, not refused with "Upgrade your plan"; usage is still counted. (With FREE_ALLOWANCE_SECONDS set,
// transcripts.int.test.ts checks the refusal.)

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;

const provider = new StaticCaptionProvider({
  lectureaaaa: {
    title: "A 71-minute lecture",
    durationSeconds: 4283,
    tracks: [{ lang: "en", name: "English", kind: "manual" as const }],
  },
});
const deps: TranscriptDeps = {
  outbound: createOutbound(),
  providerFor: (p) => (p === "youtube" ? provider : null),
  cacheHours: 24,
};
const request = transcriptRequestSchema.parse({ url: "https://www.youtube.com/watch?v=lectureaaaa" });

beforeAll(async () => {
  process.env.ASR_PROVIDER = "off";
  for (const name of ["STRIPE_SECRET_KEY", "STRIPE_PRICE_PRO", "STRIPE_PRICE_ULTRA", "FREE_ALLOWANCE_SECONDS"])
    delete process.env[name];
  ctx = await useTestDatabase();
});
afterAll(async () => ctx?.teardown());

describe("no limit on your own server", () => {
  it("a 4283 s video is transcribed and counted; the subscription says unlimited", async () => {
    const { requestTranscript } = await import("@/lib/transcripts/request-transcript");
    const { getSubscription } = await import("@/lib/usage/get-subscription");
    const user = await createUser(ctx.db);
    const outcome = await requestTranscript(user.id, request, deps);
    expect(outcome.kind).toBe("transcript");
    expect(await getSubscription(user.id)).toMatchObject({ unlimited: true, used_seconds: 4283, tier: "free" });
  });
});
