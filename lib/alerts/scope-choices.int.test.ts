// The dashboard's alert form offers what the API accepts: in a person's own account, their library, each team's
// library they are a member of, the episodes of their own follows and every published transcript; acting in a team,
// the team's library and the team's follows. Every choice it offers, turned into a request as the form does, is saved
// by POST /v1/alerts in that workspace with the scope it named; a person's own alerts over a team's library are shown
// with that team's alerts.
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { createUser, useTestDatabase } from "@/test/app-db";
import { callRoute } from "@/test/request";

const APP_URL = "https://verbatim.test";
let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let db: PrismaClient;

beforeAll(async () => {
  Object.assign(process.env, { APP_URL, RATE_LIMIT_MULTIPLIER: "0", SEARCH_EMBEDDER: "off" });
  ctx = await useTestDatabase();
  db = ctx.db;
});

afterAll(async () => {
  await ctx?.teardown();
});

/** A browser session of `personId` acting in `workspace` (their own account when not given), as the form posts. */
async function session(personId: string, workspace?: string): Promise<Record<string, string>> {
  const { startSession } = await import("@/lib/auth/sessions");
  const { authSecret } = await import("@/lib/auth/secret");
  const { WORKSPACE_COOKIE } = await import("@/lib/membership/workspace");
  const salt = "authjs.session-token";
  const cookie = `${salt}=${await encode({ token: { sub: personId, sid: await startSession(personId) }, secret: authSecret(), salt })}`;
  return { cookie: workspace ? `${cookie}; ${WORKSPACE_COOKIE}=${workspace}` : cookie, origin: APP_URL };
}

const follow = (userId: string, title: string) =>
  db.follow.create({ data: { userId, url: `https://example.com/${title}.xml`, kind: "podcast", title } });

describe("the alert form's scopes", () => {
  it("offers what each workspace may watch, and the API saves every one of them", async () => {
    const { alertScopeChoices } = await import("@/lib/alerts/scope-choices");
    const { workspaceFor } = await import("@/lib/membership/workspace");
    const { scopeOptions, scopeRequest } = await import("@/lib/browser/alerts");
    const alerts = await import("@/app/v1/alerts/route");

    const person = await createUser(db);
    const team = await db.user.create({ data: { kind: "team", name: "Crew", slug: `crew-${Date.now()}` } });
    await db.membership.create({ data: { teamId: team.id, userId: person.id, role: "member" } });
    const elsewhere = await db.user.create({ data: { kind: "team", name: "Others", slug: `others-${Date.now()}` } });
    const mine = await follow(person.id, "harbour-radio");
    const teams = await follow(team.id, "crew-cast");
    await follow(elsewhere.id, "not-ours");

    const personal = await alertScopeChoices(person.id, (await workspaceFor(person.id, undefined))!);
    expect(personal).toEqual({
      library: expect.objectContaining({ kind: "person" }),
      teams: [{ id: team.id, name: "Crew" }],
      follows: [{ id: mine.id, title: "harbour-radio" }],
      ownOverTeam: [],
    });
    const inTeam = await alertScopeChoices(person.id, (await workspaceFor(person.id, team.id))!);
    expect(inTeam).toEqual({
      library: { kind: "team", name: "Crew" },
      teams: [],
      follows: [{ id: teams.id, title: "crew-cast" }],
      ownOverTeam: [],
    });
    expect(scopeOptions(personal).map((o) => o.label)).toEqual([
      "my library",
      "the Crew team's library",
      "episodes of chosen follows",
      "every published transcript",
    ]);
    expect(scopeOptions(inTeam).map((o) => o.label)).toEqual([
      "the Crew team's library",
      "episodes of chosen follows",
      "every published transcript",
    ]);

    for (const [workspace, choices, account] of [
      [undefined, personal, person.id],
      [team.id, inTeam, team.id],
    ] as const) {
      const saved = [];
      for (const option of scopeOptions(choices)) {
        const scope = scopeRequest(
          option.value,
          choices.follows.map((f) => f.id),
        );
        const answer = await callRoute(alerts.POST, "/v1/alerts", {
          headers: await session(person.id, workspace),
          body: { query: "marmalade", scope, email: false },
        });
        expect(answer.status, `${option.label}: ${JSON.stringify(answer.json)}`).toBe(201);
        saved.push((answer.json as { scope: unknown }).scope);
      }
      expect(saved).toEqual(
        workspace
          ? [
              { kind: "library", team_id: null, follow_ids: [] },
              { kind: "follows", team_id: null, follow_ids: [teams.id] },
              { kind: "public", team_id: null, follow_ids: [] },
            ]
          : [
              { kind: "library", team_id: null, follow_ids: [] },
              { kind: "team", team_id: team.id, follow_ids: [] },
              { kind: "follows", team_id: null, follow_ids: [mine.id] },
              { kind: "public", team_id: null, follow_ids: [] },
            ],
      );
      expect(await db.alert.count({ where: { userId: account } })).toBe(saved.length);
    }

    // The alert saved over the team's library from the person's own account is shown with the team's alerts.
    const overTeam = await db.alert.findFirstOrThrow({ where: { userId: person.id, scopeKind: "team" } });
    expect((await alertScopeChoices(person.id, (await workspaceFor(person.id, team.id))!)).ownOverTeam).toEqual([
      { id: overTeam.id, name: "marmalade", paused: false, unread: 0 },
    ]);
    const other = await createUser(db);
    await db.membership.create({ data: { teamId: team.id, userId: other.id, role: "member" } });
    expect((await alertScopeChoices(other.id, (await workspaceFor(other.id, team.id))!)).ownOverTeam).toEqual([]);
  });
});
