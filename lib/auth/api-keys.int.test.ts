import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, callRoute } from "@/test/request";
import { createUser, useTestDatabase } from "@/test/app-db";
import { sha256Hex } from "@/lib/auth/tokens";

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let routes: {
  get: typeof import("@/app/v1/me/api-key/route").GET;
  ensure: typeof import("@/app/v1/me/api-key/ensure/route").POST;
  regenerate: typeof import("@/app/v1/me/api-key/regenerate/route").POST;
};
let keys: typeof import("@/lib/auth/api-keys");

beforeAll(async () => {
  ctx = await useTestDatabase();
  routes = {
    get: (await import("@/app/v1/me/api-key/route")).GET,
    ensure: (await import("@/app/v1/me/api-key/ensure/route")).POST,
    regenerate: (await import("@/app/v1/me/api-key/regenerate/route")).POST,
  };
  keys = await import("@/lib/auth/api-keys");
});

afterAll(async () => ctx?.teardown());

const KEY_SHAPE = /^vbt_[1-9A-HJ-NP-Za-km-z]{40,}$/;

describe("API keys", () => {
  it("creates one key for a new user and returns the plaintext exactly once", async () => {
    const user = await createUser(ctx.db);
    const first = await keys.ensureApiKey(user.id);
    expect(first).toMatchObject({ has_key: true, tier: "free" });
    expect(first.key).toMatch(KEY_SHAPE);
    expect(first.key_prefix).toBe(first.key!.slice(0, 12));

    expect(first.last_used_at).toBeNull();

    const res = await callRoute(routes.ensure, "/v1/me/api-key/ensure", {
      method: "POST",
      headers: bearer(first.key!),
    });
    expect(res.status).toBe(200);
    const used = (res.json as { last_used_at: string }).last_used_at;
    expect(res.json).toEqual({
      has_key: true,
      key_prefix: first.key_prefix,
      tier: "free",
      created_at: first.created_at,
      last_used_at: used,
      key: null,
    });
    expect(Date.parse(used)).toBeGreaterThanOrEqual(Date.parse(first.created_at!));

    const read = await callRoute(routes.get, "/v1/me/api-key", { headers: bearer(first.key!) });
    expect(read.status).toBe(200);
    expect(read.json).toEqual({
      has_key: true,
      key_prefix: first.key_prefix,
      tier: "free",
      created_at: first.created_at,
      last_used_at: used,
      key: null,
    });
  });

  it("stores only the SHA-256 and the display prefix, never the plaintext", async () => {
    const user = await createUser(ctx.db);
    const { key } = await keys.ensureApiKey(user.id);
    const row = await ctx.db.apiKey.findUniqueOrThrow({ where: { userId: user.id } });
    expect(row.hash).toBe(sha256Hex(key!));
    expect(Object.values(row)).not.toContain(key);
    const dump = await ctx.db.$queryRawUnsafe<{ text: string }[]>(
      `SELECT row_to_json(k)::text AS text FROM "ApiKey" k WHERE "userId" = $1`,
      user.id,
    );
    expect(dump[0].text).not.toContain(key!.slice(12));
  });

  it("reports has_key false and the live tier for a user without a key", async () => {
    const user = await createUser(ctx.db);
    expect(await keys.getApiKeyState(user.id)).toEqual({
      has_key: false,
      key_prefix: null,
      tier: "free",
      created_at: null,
      last_used_at: null,
      key: null,
    });
    await ctx.db.subscription.create({ data: { userId: user.id, tier: "pro" } });
    expect((await keys.getApiKeyState(user.id)).tier).toBe("pro");
  });

  it("two concurrent ensure calls for a new user create exactly one key", async () => {
    for (let round = 0; round < 5; round++) {
      const user = await createUser(ctx.db);
      const results = await Promise.all(Array.from({ length: 8 }, () => keys.ensureApiKey(user.id)));
      const withPlaintext = results.filter((r) => r.key !== null);
      expect(withPlaintext).toHaveLength(1);
      expect(new Set(results.map((r) => r.key_prefix)).size).toBe(1);
      expect(await ctx.db.apiKey.count({ where: { userId: user.id } })).toBe(1);
      const stored = await ctx.db.apiKey.findUniqueOrThrow({ where: { userId: user.id } });
      expect(stored.hash).toBe(sha256Hex(withPlaintext[0].key!));
    }
  });

  it("regenerate invalidates the old key on the very next request", async () => {
    const user = await createUser(ctx.db);
    const { key: oldKey } = await keys.ensureApiKey(user.id);
    const res = await callRoute(routes.regenerate, "/v1/me/api-key/regenerate", {
      method: "POST",
      headers: bearer(oldKey!),
    });
    expect(res.status).toBe(200);
    const fresh = res.json as { key: string; key_prefix: string; has_key: boolean };
    expect(fresh.key).toMatch(KEY_SHAPE);
    expect(fresh.key).not.toBe(oldKey);
    expect(fresh.key_prefix).toBe(fresh.key.slice(0, 12));

    const old = await callRoute(routes.get, "/v1/me/api-key", { headers: bearer(oldKey!) });
    expect(old.status).toBe(401);
    expect(old.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(old.json).toMatchObject({ code: "invalid_token" });

    const current = await callRoute(routes.get, "/v1/me/api-key", { headers: bearer(fresh.key) });
    expect(current.status).toBe(200);
    expect((current.json as { key: unknown }).key).toBeNull();
  });

  it("answers 401 in the contract's shape for missing, malformed and unknown credentials", async () => {
    const cases: Record<string, string | undefined> = {
      missing: undefined,
      "not bearer": "Basic dXNlcjpwYXNz",
      "empty bearer": "Bearer ",
      "unknown key": "Bearer vbt_1111111111111111111111111111111111111111",
      "unknown token": "Bearer some-opaque-token",
      "huge token": `Bearer vbt_${"x".repeat(5000)}`,
    };
    for (const [name, header] of Object.entries(cases)) {
      const res = await callRoute(routes.get, "/v1/me/api-key", { headers: header ? { authorization: header } : {} });
      expect(res.status, name).toBe(401);
      expect(res.headers.get("www-authenticate"), name).toMatch(/^Bearer realm="verbatim"/);
      const body = res.json as { detail: string; code: string };
      expect(typeof body.detail, name).toBe("string");
      expect(["unauthorized", "invalid_token"], name).toContain(body.code);
      expect(res.text, name).not.toMatch(/at .*\.(ts|js):\d+/);
    }
  });

  it("accepts an OAuth access token, and refuses a revoked or expired one", async () => {
    const user = await createUser(ctx.db);
    const token = `tok_${Math.random().toString(36).slice(2)}${Date.now()}`;
    const row = await ctx.db.oAuthToken.create({
      data: { userId: user.id, accessTokenHash: sha256Hex(token), accessExpiresAt: new Date(Date.now() + 60_000) },
    });
    expect((await callRoute(routes.get, "/v1/me/api-key", { headers: bearer(token) })).status).toBe(200);
    await ctx.db.oAuthToken.update({ where: { id: row.id }, data: { accessExpiresAt: new Date(Date.now() - 1000) } });
    expect((await callRoute(routes.get, "/v1/me/api-key", { headers: bearer(token) })).status).toBe(401);
    await ctx.db.oAuthToken.update({
      where: { id: row.id },
      data: { accessExpiresAt: new Date(Date.now() + 60_000), revokedAt: new Date() },
    });
    expect((await callRoute(routes.get, "/v1/me/api-key", { headers: bearer(token) })).status).toBe(401);
  });

  it("accepts the dashboard session cookie, and refuses it for cross-site writes", async () => {
    const { encode } = await import("next-auth/jwt");
    const { authSecret } = await import("@/lib/auth/secret");
    const { startSession } = await import("@/lib/auth/sessions");
    const user = await createUser(ctx.db);
    const sid = await startSession(user.id); // as the jwt callback does at sign-in
    const token = await encode({
      token: { sub: user.id, email: user.email, sid },
      secret: authSecret(),
      salt: "authjs.session-token",
    });
    const cookie = { cookie: `authjs.session-token=${token}` };
    const read = await callRoute(routes.get, "/v1/me/api-key", { headers: cookie });
    expect(read.status).toBe(200);
    expect(read.json).toMatchObject({ has_key: false });
    const sameSite = await callRoute(routes.ensure, "/v1/me/api-key/ensure", {
      method: "POST",
      headers: { ...cookie, origin: "http://localhost:3000" },
    });
    expect(sameSite.status).toBe(200);
    const crossSite = await callRoute(routes.regenerate, "/v1/me/api-key/regenerate", {
      method: "POST",
      headers: { ...cookie, origin: "https://evil.example" },
    });
    expect(crossSite.status).toBe(403);
    const forged = await encode({
      token: { sub: user.id },
      secret: "another-secret-another-secret-another",
      salt: "authjs.session-token",
    });
    expect(
      (await callRoute(routes.get, "/v1/me/api-key", { headers: { cookie: `authjs.session-token=${forged}` } })).status,
    ).toBe(401);
  });
});

describe("last use of a key", () => {
  it("is stamped when the key authenticates, at most once a minute, and cleared by regenerating", async () => {
    const user = await createUser(ctx.db);
    const { key } = await keys.ensureApiKey(user.id);
    const lastUsed = async () => (await ctx.db.apiKey.findUniqueOrThrow({ where: { userId: user.id } })).lastUsedAt;
    expect(await lastUsed()).toBeNull();

    expect((await keys.findApiKeyCaller(key!))?.userId).toBe(user.id);
    const stamped = await lastUsed();
    expect(stamped).not.toBeNull();

    // Within the minute: no new write (the stored time stays exactly the same).
    expect((await keys.findApiKeyCaller(key!))?.userId).toBe(user.id);
    expect(await lastUsed()).toEqual(stamped);

    // Older than the resolution: the next use moves it.
    const old = new Date(Date.now() - keys.LAST_USED_RESOLUTION_MS - 1000);
    await ctx.db.apiKey.update({ where: { userId: user.id }, data: { lastUsedAt: old } });
    await keys.findApiKeyCaller(key!);
    expect((await lastUsed())!.getTime()).toBeGreaterThan(old.getTime());

    // A wrong key stamps nothing; a regenerated key starts unused.
    const fresh = await keys.regenerateApiKey(user.id);
    expect(fresh.last_used_at).toBeNull();
    expect(await keys.findApiKeyCaller(key!)).toBeNull();
    expect(await lastUsed()).toBeNull();
  });
});
