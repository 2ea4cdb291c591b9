import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/app-db";
import { parseEnv } from "@/lib/env";

// Who runs the server: ADMIN_EMAILS, else on the embedded default with the development login the first user to
// have signed in, else nobody. The rule is given each deployment's settings; the users are real rows.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let operators: typeof import("@/lib/auth/operators");

const SECRET = "integration-tests-secret-integration-tests";
/** The embedded default on this machine: no DATABASE_URL, a loopback APP_URL, so the development login is on. */
const embeddedDefault = parseEnv({});

beforeAll(async () => {
  ctx = await useTestDatabase();
  operators = await import("@/lib/auth/operators");
});
afterAll(async () => ctx?.teardown());

describe("operators", () => {
  it("the rule: ADMIN_EMAILS wherever it is set; else the first user on the embedded default; else nobody", () => {
    expect(embeddedDefault.devLogin).toBe(true);
    expect(operators.operatorRule(embeddedDefault)).toEqual({ kind: "first_user" });
    expect(operators.operatorRule(parseEnv({ ADMIN_EMAILS: " Ops@Example.test ,b@example.test" }))).toEqual({
      kind: "emails",
      emails: ["ops@example.test", "b@example.test"],
    });
    // A public address: no development login, so no "first user" either.
    expect(operators.operatorRule(parseEnv({ APP_URL: "https://verbatim.example" }))).toEqual({ kind: "nobody" });
    // PostgreSQL, even with the development login turned on by hand.
    const postgres = { DATABASE_URL: "postgres://db/verbatim", AUTH_SECRET: SECRET, AUTH_DEV_LOGIN: "true" };
    expect(operators.operatorRule(parseEnv(postgres))).toEqual({ kind: "nobody" });
    expect(() => parseEnv({ ADMIN_EMAILS: "ops@example.test, not an email" })).toThrow(/ADMIN_EMAILS/);
  });

  it("ADMIN_EMAILS matches the user's email whatever its case, and no one else", async () => {
    const ops = await ctx.db.user.create({ data: { email: "Ops@Example.test" } });
    const other = await ctx.db.user.create({ data: { email: "someone@example.test" } });
    const noEmail = await ctx.db.user.create({ data: { name: "no email" } });
    const settings = parseEnv({
      ADMIN_EMAILS: "ops@example.test",
      DATABASE_URL: "postgres://db/v",
      AUTH_SECRET: SECRET,
    });
    expect(await operators.isOperator(ops.id, settings)).toBe(true);
    expect(await operators.isOperator(other.id, settings)).toBe(false);
    expect(await operators.isOperator(noEmail.id, settings)).toBe(false);
    expect(await operators.isOperator("no-such-user", settings)).toBe(false);
  });

  it("the embedded default: the earliest user is the operator, whoever signs in later is not", async () => {
    const first = await ctx.db.user.create({
      data: { email: "first@example.test", createdAt: new Date("2020-01-01") },
    });
    const later = await ctx.db.user.create({ data: { email: "later@example.test" } });
    expect(await operators.isOperator(first.id, embeddedDefault)).toBe(true);
    expect(await operators.isOperator(later.id, embeddedDefault)).toBe(false);
    // Where the rule is nobody, not even the first user.
    expect(await operators.isOperator(first.id, parseEnv({ APP_URL: "https://verbatim.example" }))).toBe(false);
  });
});
