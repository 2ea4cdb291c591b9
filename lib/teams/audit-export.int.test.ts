import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NextRequest } from "next/server";
import { parse } from "csv-parse/sync";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { callRoute } from "@/test/request";

// The audit trail exported through the route handler against real PostgreSQL: CSV that a CSV parser reads back
// (header, quoting, the formula guard), JSON Lines, the filters, and a long trail read in batches as it is streamed.

type Route = (request: NextRequest, route: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let exportRoute: Route;

beforeAll(async () => {
  Object.assign(process.env, { APP_URL: "http://localhost:3000", RATE_LIMIT_MULTIPLIER: "0" });
  ctx = await useTestDatabase();
  exportRoute = (await import("@/app/v1/teams/[team_id]/audit/export/route")).GET as Route;
});

afterAll(async () => {
  await ctx?.teardown();
});

async function person() {
  const caller = await createCaller(ctx.db);
  const user = await ctx.db.user.findUniqueOrThrow({ where: { id: caller.userId } });
  return { id: user.id, email: user.email!, headers: caller.headers };
}

async function team(owner: { id: string }, members: [{ id: string }, "admin" | "member"][] = []) {
  const row = await ctx.db.user.create({
    data: { kind: "team", name: "Trail", slug: `trail-${Math.random().toString(36).slice(2, 10)}` },
  });
  await ctx.db.membership.create({ data: { teamId: row.id, userId: owner.id, role: "owner" } });
  for (const [who, role] of members) await ctx.db.membership.create({ data: { teamId: row.id, userId: who.id, role } });
  return row.id;
}

const at = (day: number) => new Date(Date.UTC(2026, 0, day, 12));

/** Five events over five days, two actors, targets a spreadsheet would misread. */
async function seed(teamId: string, owner: { id: string; email: string }) {
  await ctx.db.auditEvent.createMany({
    data: [
      {
        teamId,
        actorId: owner.id,
        actorLabel: owner.email,
        action: "member.invited",
        target: "a@example.com",
        createdAt: at(1),
      },
      {
        teamId,
        actorId: owner.id,
        actorLabel: owner.email,
        action: "team.renamed",
        target: '=HYPERLINK("http://evil.example","click")',
        data: { name: 'Desk, "the"\nnewsroom' },
        createdAt: at(2),
      },
      {
        teamId,
        actorId: null,
        actorLabel: "API key vbt_ab12…",
        action: "webhook.created",
        target: "+1 555",
        createdAt: at(3),
      },
      {
        teamId,
        actorId: null,
        actorLabel: "API key vbt_ab12…",
        action: "key.created",
        target: "-2+3",
        createdAt: at(4),
      },
      { teamId, actorId: owner.id, actorLabel: owner.email, action: "member.invited", target: "@b", createdAt: at(5) },
    ],
  });
}

function get(headers: Record<string, string>, teamId: string, query: string) {
  return callRoute(exportRoute, `/v1/teams/${teamId}/audit/export?${query}`, { headers, params: { team_id: teamId } });
}

describe("GET /v1/teams/{team_id}/audit/export", () => {
  it("answers CSV with a header row that a CSV parser reads back, oldest first, formulas defused", async () => {
    const owner = await person();
    const teamId = await team(owner);
    await seed(teamId, owner);
    const answer = await get(owner.headers, teamId, "format=csv");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(answer.headers.get("content-disposition")).toMatch(/^attachment; filename="audit-.*\.csv"$/);
    expect(answer.text.split("\r\n")[0]).toBe("id,at,actor_id,actor_label,action,target,data");

    const rows = parse(answer.text, { columns: true }) as Record<string, string>[];
    expect(rows.map((row) => row.at)).toEqual([1, 2, 3, 4, 5].map((day) => at(day).toISOString()));
    expect(rows.map((row) => row.target)).toEqual([
      "a@example.com",
      `'=HYPERLINK("http://evil.example","click")`,
      "'+1 555",
      "'-2+3",
      "'@b",
    ]);
    expect(JSON.parse(rows[1].data)).toEqual({ name: 'Desk, "the"\nnewsroom' });
    expect(rows[2]).toMatchObject({ actor_id: "", actor_label: "API key vbt_ab12…", data: "" });
  });

  it("answers JSON Lines, one event a line", async () => {
    const owner = await person();
    const teamId = await team(owner);
    await seed(teamId, owner);
    const answer = await get(owner.headers, teamId, "format=jsonl");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("application/jsonl; charset=utf-8");
    const lines = answer.text.trimEnd().split("\n");
    expect(lines).toHaveLength(5);
    const events = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events[1]).toMatchObject({
      actor_id: owner.id,
      action: "team.renamed",
      target: '=HYPERLINK("http://evil.example","click")',
      data: { name: 'Desk, "the"\nnewsroom' },
    });
  });

  it("filters by actor (id or label), action and time, combined", async () => {
    const owner = await person();
    const teamId = await team(owner);
    await seed(teamId, owner);
    const targets = async (query: string) => {
      const answer = await get(owner.headers, teamId, `format=jsonl&${query}`);
      expect(answer.status, answer.text).toBe(200);
      return answer.text
        .split("\n")
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { target: string }).target);
    };
    expect(await targets(`actor=${owner.id}`)).toEqual([
      "a@example.com",
      '=HYPERLINK("http://evil.example","click")',
      "@b",
    ]);
    expect(await targets(`actor=${encodeURIComponent("API key vbt_ab12…")}`)).toEqual(["+1 555", "-2+3"]);
    expect(await targets("action=member.invited")).toEqual(["a@example.com", "@b"]);
    expect(await targets(`from=${at(2).toISOString()}&to=${at(4).toISOString()}`)).toEqual([
      '=HYPERLINK("http://evil.example","click")',
      "+1 555",
    ]);
    expect(await targets(`action=member.invited&from=${at(3).toISOString()}`)).toEqual(["@b"]);
    expect(await targets("action=nothing.matches")).toEqual([]);

    // An empty CSV still has its header.
    const empty = await get(owner.headers, teamId, "format=csv&action=nothing.matches");
    expect(empty.text).toBe("id,at,actor_id,actor_label,action,target,data\r\n");
  });

  it("refuses a bad filter (422), a member (403) and a stranger (404) before any byte of the file", async () => {
    const owner = await person();
    const member = await person();
    const stranger = await person();
    const teamId = await team(owner, [[member, "member"]]);
    for (const query of ["format=xlsx", "from=yesterday", "action=DROP TABLE"])
      expect((await get(owner.headers, teamId, query)).status, query).toBe(422);
    const refused = await get(member.headers, teamId, "format=csv");
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ code: "forbidden" });
    expect((await get(stranger.headers, teamId, "format=csv")).status).toBe(404);
  });

  it("reads a long trail in batches, each only when the one before has been taken", async () => {
    const owner = await person();
    const teamId = await team(owner);
    const total = 2_500;
    const start = at(1).getTime();
    await ctx.db.auditEvent.createMany({
      data: Array.from({ length: total }, (_, i) => ({
        teamId,
        actorId: owner.id,
        actorLabel: owner.email,
        action: "member.invited",
        target: `p${i}@example.com`,
        // Pairs share a millisecond, so the keyset's tie on id is walked too.
        createdAt: new Date(start + Math.floor(i / 2)),
      })),
    });
    const { exportAudit } = await import("@/lib/teams/audit-export");
    const batches: number[] = [];
    const response = await exportAudit(
      teamId,
      owner.id,
      { format: "jsonl" },
      { batchSize: 100, onBatch: (rows) => batches.push(rows) },
    );
    // Nothing is read until the body is.
    expect(batches).toEqual([]);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value).trimEnd().split("\n")).toHaveLength(100);
    expect(batches.length).toBeLessThanOrEqual(2);

    let text = new TextDecoder().decode(first.value);
    for (let next = await reader.read(); !next.done; next = await reader.read())
      text += new TextDecoder().decode(next.value);
    // 25 full batches, then one that finds nothing more.
    expect(batches).toEqual([...Array(25).fill(100), 0]);
    const targets = text
      .trimEnd()
      .split("\n")
      .map((l) => (JSON.parse(l) as { target: string }).target);
    expect(targets).toHaveLength(total);
    expect(new Set(targets).size).toBe(total);
  });
});

describe("an export with a time outside the years 1 to 9999", () => {
  it("is refused with a 422 in the contract's shape before any byte of the file", async () => {
    const owner = await person();
    const teamId = await team(owner);
    await seed(teamId, owner);
    const query = (name: string, time: string) => `${name}=${encodeURIComponent(time)}`;
    for (const filter of [
      // Each is ISO 8601 with an offset; in UTC the first three fall in the year 0, which PostgreSQL refuses
      // (today the connection was cut after the headers), and the last in the year 10000.
      query("from", "0000-01-01T00:00:00Z"),
      query("to", "0001-01-01T00:00:00+14:00"),
      `${query("from", "0000-06-01T00:00:00Z")}&${query("to", "2026-01-01T00:00:00Z")}`,
      query("to", "9999-12-31T23:59:59-14:00"),
    ]) {
      const answer = await get(owner.headers, teamId, `format=csv&${filter}`);
      expect(answer.status, filter).toBe(422);
      expect(answer.headers.get("content-type"), filter).toMatch(/^application\/json/);
      expect(answer.json, filter).toMatchObject({
        detail: [{ loc: ["query", expect.stringMatching(/^(from|to)$/)], type: "value_error" }],
      });
    }
    // The ends of the range are times like any other.
    const edges = await get(
      owner.headers,
      teamId,
      `format=jsonl&${query("from", "0001-01-01T00:00:00Z")}&${query("to", "9999-12-31T23:59:59Z")}`,
    );
    expect(edges.status).toBe(200);
    expect(edges.text.trimEnd().split("\n")).toHaveLength(5);
  });
});
