import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, useTestDatabase } from "@/test/app-db";
import { StaticCaptionProvider } from "@/test/fakes/static-captions";
import type { TranscriptDeps } from "@/lib/transcripts/deps";
import { transcriptRequestSchema } from "@/lib/transcripts/schemas";
import { createOutbound } from "@/lib/http/outbound";

// A team's library is its account's: a transcript one member fetched is in the team's history, so another
// member's request for it (at the same time, or later) is free, and the entry names the member who asked.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let requestTranscript: typeof import("@/lib/transcripts/request-transcript").requestTranscript;
let getSubscription: typeof import("@/lib/usage/get-subscription").getSubscription;
let actingAs: typeof import("@/lib/membership/actor").actingAs;

const provider = new StaticCaptionProvider({
  teamaaaaaaa: { title: "Shared", durationSeconds: 300, tracks: [{ lang: "en", name: "English", kind: "manual" }] },
  teambbbbbbb: { title: "Second", durationSeconds: 100, tracks: [{ lang: "en", name: "English", kind: "manual" }] },
});
const deps: TranscriptDeps = {
  outbound: createOutbound(),
  providerFor: (p) => (p === "youtube" ? provider : null),
  cacheHours: 24,
};
const req = (id: string) => transcriptRequestSchema.parse({ url: `https://www.youtube.com/watch?v=${id}` });

beforeAll(async () => {
  process.env.ASR_PROVIDER = "off";
  ctx = await useTestDatabase();
  ({ requestTranscript } = await import("@/lib/transcripts/request-transcript"));
  ({ getSubscription } = await import("@/lib/usage/get-subscription"));
  ({ actingAs } = await import("@/lib/membership/actor"));
});
afterAll(async () => ctx?.teardown());

async function teamWithTwo() {
  const team = await ctx.db.user.create({ data: { kind: "team", name: "Newsroom" } });
  const [a, b] = [await createUser(ctx.db), await createUser(ctx.db)];
  await ctx.db.membership.createMany({
    data: [
      { teamId: team.id, userId: a.id, role: "member" },
      { teamId: team.id, userId: b.id, role: "member" },
    ],
  });
  return { team: team.id, a: a.id, b: b.id };
}

describe("a team's usage", () => {
  it("charges a transcript once to the team when two members ask for it at once, and names who asked", async () => {
    const { team, a, b } = await teamWithTwo();
    const outcomes = await Promise.all([
      actingAs(a, () => requestTranscript(team, req("teamaaaaaaa"), deps)),
      actingAs(b, () => requestTranscript(team, req("teamaaaaaaa"), deps)),
    ]);
    expect(outcomes.map((o) => o.kind)).toEqual(["transcript", "transcript"]);
    expect((await getSubscription(team)).used_seconds).toBe(300);
    // Asked again later by either member: still free.
    await actingAs(b, () => requestTranscript(team, req("teamaaaaaaa"), deps));
    await actingAs(a, () => requestTranscript(team, req("teamaaaaaaa"), deps));
    expect((await getSubscription(team)).used_seconds).toBe(300);
    const entries = await ctx.db.transcription.findMany({ where: { userId: team } });
    expect(entries).toHaveLength(1);
    expect([a, b]).toContain(entries[0].actorId);
    // Neither member's own allowance moved.
    expect((await getSubscription(a)).used_seconds).toBe(0);
    expect((await getSubscription(b)).used_seconds).toBe(0);

    await actingAs(b, () => requestTranscript(team, req("teambbbbbbb"), deps));
    expect((await getSubscription(team)).used_seconds).toBe(400);
    const second = await ctx.db.transcription.findFirstOrThrow({ where: { userId: team, videoId: "teambbbbbbb" } });
    expect(second.actorId).toBe(b);
  });

  it("records no actor in a person's own history, nor for a request no one person made", async () => {
    const person = await createUser(ctx.db);
    await actingAs(null, () => requestTranscript(person.id, req("teambbbbbbb"), deps));
    const { team } = await teamWithTwo();
    await requestTranscript(team, req("teamaaaaaaa"), deps);
    const entries = await ctx.db.transcription.findMany({ where: { userId: { in: [person.id, team] } } });
    expect(entries.map((e) => e.actorId)).toEqual([null, null]);
  });
});
