// The webhook_endpoint_maker migration on a database that already holds endpoints: a person's are theirs, a team's
// are the person's whose trail line (webhook.created) names the URL, written just after the endpoint; none when none.
import { cp, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { applyMigrations, pgExecutor } from "@/lib/db/migrate";
import { MIGRATIONS, MIGRATIONS_DIR, useMigrationsDatabase } from "@/test/migrations-db";

const LATER = MIGRATIONS.filter((name) => name >= "20261129095208");

describe("the webhook_endpoint_maker migration", () => {
  const { connect } = useMigrationsDatabase();

  it("fills who registered each existing endpoint from the account or the team's trail", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "verbatim-migrations-"));
    try {
      await cp(MIGRATIONS_DIR, dir, { recursive: true });
      for (const name of LATER) await rm(path.join(dir, name), { recursive: true });
      const client = await connect();
      const executor = pgExecutor(client);
      await applyMigrations(executor, { dir });
      await client.query(
        `INSERT INTO "User" ("id", "kind", "updatedAt") VALUES ('team', 'team', now());
         INSERT INTO "User" ("id", "email", "updatedAt") VALUES ('ana', 'ana@example.com', now()), ('bo', 'bo@example.com', now());
         INSERT INTO "WebhookEndpoint" ("id", "userId", "url", "eventTypes", "secretCipher", "createdAt", "updatedAt") VALUES
           ('own', 'ana', 'https://a.example/h', '{}', 'x', now(), now()),
           ('again', 'team', 'https://t.example/h', '{}', 'x', timestamp '2026-11-02', now()),
           ('unknown', 'team', 'https://u.example/h', '{}', 'x', now(), now());
         INSERT INTO "AuditEvent" ("id", "teamId", "actorId", "actorLabel", "action", "target", "createdAt") VALUES
           ('e1', 'team', 'bo', 'bo@example.com', 'webhook.created', 'https://t.example/h', timestamp '2026-11-01'),
           ('e2', 'team', 'ana', 'ana@example.com', 'webhook.created', 'https://t.example/h', timestamp '2026-11-02 00:00:01')`,
      );
      expect((await applyMigrations(executor)).applied).toEqual(LATER);
      const rows = await client.query(`SELECT "id", "createdById" FROM "WebhookEndpoint" ORDER BY "id"`);
      expect(rows.rows).toEqual([
        { id: "again", createdById: "ana" },
        { id: "own", createdById: "ana" },
        { id: "unknown", createdById: null },
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
