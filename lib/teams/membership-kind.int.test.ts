import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, useTestDatabase } from "@/test/app-db";

// A membership's team is a team, held by the database (trigger "Membership_team_is_a_team" and
// "User_team_keeps_its_kind"), so no code path needs to check the account's kind beside the membership.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;

beforeAll(async () => {
  ctx = await useTestDatabase();
});
afterAll(async () => ctx?.teardown());

describe("a membership's team", () => {
  it("must be a team account", async () => {
    const person = await createUser(ctx.db);
    const other = await createUser(ctx.db);
    await expect(
      ctx.db.membership.create({ data: { teamId: other.id, userId: person.id, role: "member" } }),
    ).rejects.toThrow(/must be a team account/);
    const team = await ctx.db.user.create({ data: { kind: "team", name: "Real team" } });
    await ctx.db.membership.create({ data: { teamId: team.id, userId: person.id, role: "member" } });
    await expect(
      ctx.db.membership.update({
        where: { teamId_userId: { teamId: team.id, userId: person.id } },
        data: { teamId: other.id },
      }),
    ).rejects.toThrow(/must be a team account/);
  });

  it("keeps a team with members a team", async () => {
    const person = await createUser(ctx.db);
    const team = await ctx.db.user.create({ data: { kind: "team", name: "Kept" } });
    await ctx.db.membership.create({ data: { teamId: team.id, userId: person.id, role: "owner" } });
    await expect(ctx.db.user.update({ where: { id: team.id }, data: { kind: "person" } })).rejects.toThrow(
      /stays a team/,
    );
    const empty = await ctx.db.user.create({ data: { kind: "team", name: "Empty" } });
    await expect(ctx.db.user.update({ where: { id: empty.id }, data: { kind: "person" } })).resolves.toMatchObject({
      kind: "person",
    });
  });
});
