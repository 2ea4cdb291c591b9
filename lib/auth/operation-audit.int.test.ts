import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encode } from "next-auth/jwt";
import { createUser, useTestDatabase } from "@/test/app-db";
import { seedTranscript } from "@/test/publishing";
import { callRoute } from "@/test/request";

// The team's audit trail from the operations of a team's account: who (an e-mail, or the team key's prefix), what
// and to what; nothing for a person's own account.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
const dataDir = mkdtempSync(path.join(os.tmpdir(), "verbatim-audit-"));

beforeAll(async () => {
  process.env.APP_URL = "http://localhost:3000";
  process.env.DATA_DIR = dataDir;
  ctx = await useTestDatabase();
});
afterAll(async () => {
  await ctx?.teardown();
  rmSync(dataDir, { recursive: true, force: true });
});

async function session(personId: string, workspace?: string): Promise<Record<string, string>> {
  const { startSession } = await import("@/lib/auth/sessions");
  const { authSecret } = await import("@/lib/auth/secret");
  const { WORKSPACE_COOKIE } = await import("@/lib/membership/workspace");
  const salt = "authjs.session-token";
  const sid = await startSession(personId);
  const cookie = `${salt}=${await encode({ token: { sub: personId, sid }, secret: authSecret(), salt })}`;
  return {
    cookie: workspace ? `${cookie}; ${WORKSPACE_COOKIE}=${workspace}` : cookie,
    origin: "http://localhost:3000",
  };
}

describe("the audit trail of a team's operations", () => {
  it("names every audited operation of the endpoint registry", async () => {
    const { AUDITED_OPERATIONS } = await import("@/lib/auth/operation-audit");
    const { allEndpoints } = await import("@/lib/openapi/endpoints");
    const known = new Set(allEndpoints.map((e) => `${e.method} ${e.path}`));
    expect(AUDITED_OPERATIONS.filter((op) => !known.has(op))).toEqual([]);
  });

  it("records the key, deletion and unpublication with the member's e-mail or the key's prefix; none for a person's own", async () => {
    const team = await ctx.db.user.create({ data: { kind: "team", name: "Audited", slug: "audited" } });
    const admin = await createUser(ctx.db);
    await ctx.db.membership.create({ data: { teamId: team.id, userId: admin.id, role: "admin" } });
    const { POST: regenerate } = await import("@/app/v1/me/api-key/regenerate/route");
    const { DELETE: deleteEntry } = await import("@/app/v1/me/transcriptions/[id]/route");
    const { DELETE: unpublish } = await import("@/app/v1/publish/[slug]/route");

    const keyed = await callRoute(regenerate, "/v1/me/api-key/regenerate", {
      method: "POST",
      headers: await session(admin.id, team.id),
    });
    expect(keyed.status).toBe(200);
    const teamKey = { authorization: `Bearer ${(keyed.json as { key: string }).key}` };

    const transcript = await seedTranscript(ctx.db, team.id, { videoId: "auditvideo1" });
    const entry = await ctx.db.transcription.findFirstOrThrow({ where: { userId: team.id } });
    await ctx.db.publication.create({
      data: { slug: "audit-slug", userId: team.id, transcriptId: transcript.id, publishedAt: new Date() },
    });
    expect(
      (
        await callRoute(unpublish, "/v1/publish/audit-slug", {
          method: "DELETE",
          headers: teamKey,
          params: { slug: "audit-slug" },
        })
      ).status,
    ).toBe(204);
    expect(
      (
        await callRoute(deleteEntry, `/v1/me/transcriptions/${entry.id}`, {
          method: "DELETE",
          headers: await session(admin.id, team.id),
          params: { id: entry.id },
        })
      ).status,
    ).toBe(204);

    const events = await ctx.db.auditEvent.findMany({ where: { teamId: team.id }, orderBy: { createdAt: "asc" } });
    expect(events.map((e) => [e.action, e.actorId, e.target])).toEqual([
      ["key.regenerated", admin.id, (keyed.json as { key_prefix: string }).key_prefix],
      ["transcript.unpublished", null, "audit-slug"],
      ["transcript.deleted", admin.id, entry.id],
    ]);
    expect(events[0].actorLabel).toBe(admin.email);
    expect(events[1].actorLabel).toMatch(/^API key vbt_/);

    // A person's own account keeps no trail.
    const before = await ctx.db.auditEvent.count();
    const own = await callRoute(regenerate, "/v1/me/api-key/regenerate", {
      method: "POST",
      headers: await session(admin.id),
    });
    expect(own.status).toBe(200);
    expect(await ctx.db.auditEvent.count()).toBe(before);
  });

  it("records an MCP tool's operation as its REST operation's, under the member's name", async () => {
    const team = await ctx.db.user.create({ data: { kind: "team", name: "Audited by tools" } });
    const member = await createUser(ctx.db);
    await ctx.db.membership.create({ data: { teamId: team.id, userId: member.id, role: "member" } });
    const transcript = await seedTranscript(ctx.db, team.id, { videoId: "auditvideo2" });
    await ctx.db.publication.create({
      data: { slug: "audit-mcp", userId: team.id, transcriptId: transcript.id, publishedAt: new Date() },
    });
    const { issueTokens } = await import("@/lib/oauth/issue-tokens");
    const { mcpResource } = await import("@/lib/oauth/config");
    const tokens = await ctx.db.$transaction((tx) =>
      issueTokens(tx, {
        userId: member.id,
        clientId: null,
        scope: "api",
        resource: mcpResource(),
        deviceLabel: "audit",
        workspaceId: team.id,
      }),
    );
    const { createMcpHandler } = await import("@/lib/mcp/handler");
    const { createOutbound } = await import("@/lib/http/outbound");
    const outbound = createOutbound();
    const handler = createMcpHandler({
      deps: () => ({ outbound, providerFor: () => null, cacheHours: 24 }),
      podcastDeps: () => ({ outbound, lookupUrl: "http://127.0.0.1:9/lookup", maxBytes: 1024 }),
    });
    const { NextRequest } = await import("next/server");
    const response = await handler(
      new NextRequest("http://localhost:3000/mcp", {
        method: "POST",
        headers: {
          authorization: `Bearer ${tokens.access_token}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "unpublish_transcript", arguments: { slug: "audit-mcp" } },
        }),
      }),
    );
    expect(response.status).toBe(200);
    const events = await ctx.db.auditEvent.findMany({ where: { teamId: team.id } });
    expect(events.map((e) => [e.action, e.actorId, e.actorLabel, e.target])).toEqual([
      ["transcript.unpublished", member.id, member.email, "audit-mcp"],
    ]);
  });

  it("answers a change that succeeded as the success it was when its audit line cannot be written, and writes the line later, once", async () => {
    const team = await ctx.db.user.create({ data: { kind: "team", name: "Trail down" } });
    const admin = await createUser(ctx.db);
    await ctx.db.membership.create({ data: { teamId: team.id, userId: admin.id, role: "admin" } });
    const transcript = await seedTranscript(ctx.db, team.id, { videoId: "auditvideo3" });
    await ctx.db.publication.create({
      data: { slug: "audit-down", userId: team.id, transcriptId: transcript.id, publishedAt: new Date() },
    });
    await ctx.db.$executeRawUnsafe(
      `CREATE FUNCTION test_refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'trail down'; END $$`,
    );
    await ctx.db.$executeRawUnsafe(
      `CREATE TRIGGER test_refuse_audit BEFORE INSERT ON "AuditEvent" FOR EACH ROW EXECUTE FUNCTION test_refuse_audit()`,
    );
    try {
      const { DELETE: unpublish } = await import("@/app/v1/publish/[slug]/route");
      const answer = await callRoute(unpublish, "/v1/publish/audit-down", {
        method: "DELETE",
        headers: await session(admin.id, team.id),
        params: { slug: "audit-down" },
      });
      expect(answer.status).toBe(204);
      expect((await ctx.db.publication.findUnique({ where: { slug: "audit-down" } }))?.publishedAt ?? null).toBeNull();
      expect(await ctx.db.auditEvent.count({ where: { teamId: team.id } })).toBe(0);
    } finally {
      await ctx.db.$executeRawUnsafe(`DROP TRIGGER test_refuse_audit ON "AuditEvent"`);
      await ctx.db.$executeRawUnsafe(`DROP FUNCTION test_refuse_audit()`);
    }
    const outbox = path.join(dataDir, "audit-outbox");
    const kept = readdirSync(outbox);
    expect(kept).toHaveLength(1);
    const keptText = readFileSync(path.join(outbox, kept[0]!), "utf8");

    const { writeKeptAuditLines } = await import("@/lib/membership/audit-outbox");
    expect(await writeKeptAuditLines()).toEqual({ written: 1, unreadable: 0 });
    expect(readdirSync(outbox)).toEqual([]);
    // A writer stopped between the row and the file's removal writes it again: still one row.
    writeFileSync(path.join(outbox, kept[0]!), keptText);
    expect(await writeKeptAuditLines()).toEqual({ written: 1, unreadable: 0 });
    const events = await ctx.db.auditEvent.findMany({ where: { teamId: team.id } });
    expect(events.map((e) => [e.action, e.actorId, e.actorLabel, e.target])).toEqual([
      ["transcript.unpublished", admin.id, admin.email, "audit-down"],
    ]);
    expect(events[0]!.createdAt.toISOString()).toBe((JSON.parse(keptText) as { at: string }).at);
  });
});
