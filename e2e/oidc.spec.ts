import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { expect, type Browser, type BrowserContext, type Page } from "@playwright/test";

import { hydrating, test } from "./fixtures";
import { randomEmail, recordSecrets } from "./helpers";
import { startOidcProvider, type TestOidcProvider } from "../test/oidc-provider";
import { ensureTestPostgres, type TestPostgres } from "../test/pg-server";
import { createTestDatabase } from "../test/pg";
import { SERVER_LOGS_DIR } from "../test/secrets";

// Sign-in through a real OpenID Connect provider (oidc-provider, started here) in Chromium, against an app of its
// own settings: on PostgreSQL (so the test can make teams and read memberships beside the running app, and the
// operator's `npm run signin-link` can reach the database), with the provider as the only way in: e-mail links
// switched off (a mail server is set, so only the switch holds them off) and no development login.

const base = Number(process.env.E2E_PORT ?? 3123);
const APP_PORT = base + 10; // playwright.config.ts keeps port+10 and port+11 free for this spec
const PROVIDER_PORT = base + 11;
// localhost, not 127.0.0.1: Next.js hands route handlers a URL whose loopback address is rewritten to localhost, so
// with APP_URL at 127.0.0.1 the callback would send the provider another redirect_uri than the sign-in did.
const APP = `http://localhost:${APP_PORT}`;
const SECRET = "oidc-e2e-secret-oidc-e2e-secret-oidc-e2e";
const SSO = "Continue with Acme SSO";

let postgres: TestPostgres;
let database: { url: string; drop(): Promise<void> };
let db: pg.Client;
let provider: TestOidcProvider;
let app: ChildProcess;
let log = "";
let appEnv: NodeJS.ProcessEnv;
const acme = `acme-${Date.now().toString(36)}`;
let acmeId = "";

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  postgres = await ensureTestPostgres(() => undefined);
  database = await createTestDatabase();
  provider = await startOidcProvider(PROVIDER_PORT, `${APP}/api/auth/callback/oidc`);
  appEnv = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: process.env.HOME ?? "/tmp",
    NEXT_TELEMETRY_DISABLED: "1",
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "verbatim-oidc-")),
    DATABASE_URL: database.url,
    AUTH_SECRET: SECRET,
    APP_URL: APP,
    RATE_LIMIT_MULTIPLIER: "10",
    AUTH_DEV_LOGIN: "false",
    AUTH_EMAIL_SIGNIN: "off",
    SMTP_URL: "smtp://127.0.0.1:9",
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: provider.clientId,
    OIDC_CLIENT_SECRET: provider.clientSecret,
    OIDC_NAME: "Acme SSO",
    OIDC_SCOPES: "openid email profile groups",
    OIDC_ALLOWED_DOMAINS: "acme.test,example.test",
    OIDC_ALLOWED_GROUPS: "verbatim-users,verbatim-admins,other",
    OIDC_TEAM_ROLES: `${acme}:admin=verbatim-admins,${acme}:member=verbatim-users`,
  } as unknown as NodeJS.ProcessEnv;
  const migrated = spawnSync(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/migrate.ts"], {
    env: appEnv,
    encoding: "utf8",
  });
  expect(migrated.status, migrated.stderr).toBe(0);
  db = new pg.Client({ connectionString: database.url });
  await db.connect();
  acmeId = `team-${acme}`;
  await db.query(`INSERT INTO "User" (id, kind, name, slug, "updatedAt") VALUES ($1, 'team', 'Acme', $2, now())`, [
    acmeId,
    acme,
  ]);
  app = spawn(
    process.execPath,
    ["node_modules/next/dist/bin/next", "start", "-p", String(APP_PORT), "-H", "127.0.0.1"],
    { env: appEnv, stdio: ["ignore", "pipe", "pipe"] },
  );
  // Also where the run's leak check reads every app's log (e2e/global-teardown.ts).
  mkdirSync(SERVER_LOGS_DIR, { recursive: true });
  const file = createWriteStream(path.join(SERVER_LOGS_DIR, `app-oidc-${APP_PORT}.log`));
  for (const stream of [app.stdout!, app.stderr!])
    stream.on("data", (chunk: Buffer) => {
      log += chunk;
      file.write(chunk);
    });
  await expect
    .poll(
      () =>
        fetch(`http://127.0.0.1:${APP_PORT}/health`).then(
          (r) => r.status,
          () => 0,
        ),
      { timeout: 90_000 },
    )
    .toBe(200);
});

test.afterAll(async () => {
  app?.kill("SIGTERM");
  await provider?.close();
  await db?.end();
  await database?.drop();
  await postgres?.stop?.();
  if (appEnv?.DATA_DIR) rmSync(appEnv.DATA_DIR, { recursive: true, force: true });
});

/** A browser of its own (its own cookies at the app and at the provider), the provider's fonts not fetched. */
async function freshContext(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: APP });
  await context.route(/^https:\/\/fonts\./, (route) => route.abort());
  return { context, page: hydrating(await context.newPage()) };
}

/**
 * Starts at the sign-in page and follows the provider: its login form when it asks (the login is the person's
 * `sub`), its consent when it asks, until the browser is back at the app.
 */
async function signInAtProvider(page: Page, login: string) {
  await page.goto("/signin");
  await page.getByRole("button", { name: SSO }).click();
  // Back at the app: anywhere but the bare sign-in page the button was on (a refusal comes back to it with ?error).
  const back = (url: URL) => url.origin === APP && !(url.pathname === "/signin" && !url.searchParams.has("error"));
  for (;;) {
    await page.waitForURL((url) => back(url) || url.pathname.startsWith("/interaction/"), { timeout: 30_000 });
    if (back(new URL(page.url()))) return;
    const here = page.url();
    if (await page.locator('input[name="login"]').count()) {
      await page.locator('input[name="login"]').fill(login);
      await page.locator('input[name="password"]').fill("any password");
      await page.getByRole("button", { name: "Sign-in" }).click();
    } else {
      await page.getByRole("button", { name: "Continue" }).click();
    }
    await page.waitForURL((url) => url.href !== here, { timeout: 30_000 });
  }
}

/** The person's memberships in the test's team, as `role` or `role*` (set by the provider). */
async function acmeRole(email: string): Promise<string | null> {
  const { rows } = await db.query<{ role: string; managed: boolean }>(
    `SELECT m.role, m."managedByIdentityProvider" AS managed FROM "Membership" m JOIN "User" u ON u.id = m."userId"
     WHERE m."teamId" = $1 AND u.email = $2`,
    [acmeId, email],
  );
  return rows[0] ? `${rows[0].role}${rows[0].managed ? "*" : ""}` : null;
}

const alert = (page: Page) => page.locator("main").getByRole("alert");

test("the sign-in page offers only the provider: no e-mail link, no development login", async ({ browser }) => {
  const { context, page } = await freshContext(browser);
  await page.goto("/signin");
  await expect(page.getByRole("button", { name: SSO })).toBeVisible();
  await expect(page.getByRole("button", { name: "Email me a link" })).toHaveCount(0);
  await expect(page.locator('input[type="email"]')).toHaveCount(0);
  await expect(page.getByTestId("dev-login")).toHaveCount(0);
  await context.close();
});

test("first sign-in makes the account and lands on the dashboard; groups set, change and take away the team role", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const email = randomEmail("ana").replace("@example.test", "@acme.test");
  provider.setPerson("ana", { email, email_verified: true, name: "Ana", groups: ["verbatim-users"] });
  const { context, page } = await freshContext(browser);
  const callbacks: string[] = [];
  page.on("request", (request) => {
    if (request.url().startsWith(`${APP}/api/auth/callback/oidc`)) callbacks.push(request.url());
  });

  await signInAtProvider(page, "ana");
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("user-email")).toHaveText(email);
  expect(await acmeRole(email)).toBe("member*");
  const { rows: sessions } = await db.query(
    `SELECT s.id FROM "Session" s JOIN "User" u ON u.id = s."userId" WHERE u.email = $1`,
    [email],
  );
  expect(sessions).toHaveLength(1);

  // A replayed callback (the same code and state again) from another browser is refused, with a page that says so.
  const callback = callbacks.at(-1)!;
  const { context: other, page: replay } = await freshContext(browser);
  const replayed = await replay.goto(callback);
  expect(replayed?.status()).toBe(200);
  await expect(replay).toHaveURL(/\/signin\?error=Configuration/);
  await expect(alert(replay)).toContainText("Sign-in did not complete");
  await expect(replay.getByTestId("user-email")).toHaveCount(0);
  // And from the same browser once signed out: its state cookie was used up by the first visit.
  await context.clearCookies({ name: /^authjs\./ });
  await page.goto(callback);
  await expect(page).toHaveURL(/\/signin\?error=Configuration/);
  await expect(alert(page)).toContainText("Sign-in did not complete");

  // Promoted at the provider: the next sign-in (the provider remembers the person) makes them the team's admin.
  provider.setPerson("ana", { email, email_verified: true, name: "Ana", groups: ["verbatim-admins", "other"] });
  await signInAtProvider(page, "ana");
  await expect(page).toHaveURL(/\/dashboard$/);
  expect(await acmeRole(email)).toBe("admin*");

  // Removed from the groups: the next sign-in takes the team away.
  provider.setPerson("ana", { email, email_verified: true, name: "Ana", groups: ["other"] });
  await context.clearCookies({ name: /^authjs\./ });
  await signInAtProvider(page, "ana");
  await expect(page).toHaveURL(/\/dashboard$/);
  expect(await acmeRole(email)).toBeNull();
  await other.close();
  await context.close();
});

test("a person made by the provider creates an API key and uses it, approves a device login and an OAuth connector", async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const email = randomEmail("keys").replace("@example.test", "@acme.test");
  provider.setPerson("bo", { email, email_verified: true, groups: ["other"] });
  const { context, page } = await freshContext(browser);
  await signInAtProvider(page, "bo");
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto("/dashboard/keys");
  await page.getByRole("button", { name: "Create key" }).click();
  const key = (await page.getByTestId("new-key").textContent())!.trim();
  recordSecrets(key);
  const withKey = await request.get(`${APP}/v1/me/api-key`, { headers: { authorization: `Bearer ${key}` } });
  expect(withKey.status()).toBe(200);
  expect(await withKey.json()).toMatchObject({ has_key: true, key_prefix: key.slice(0, 12) });

  const started = await (await request.post(`${APP}/v1/device/code`, { form: { client_id: "verbatim-cli" } })).json();
  const verify = new URL(started.verification_uri_complete);
  await page.goto(verify.pathname + verify.search);
  await expect(page.getByTestId("device-user-code")).toHaveText(started.user_code);
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("status")).toContainText("Approved");
  const tokens = await request.post(`${APP}/oauth/token`, {
    form: { grant_type: "urn:ietf:params:oauth:grant-type:device_code", device_code: started.device_code },
  });
  expect(tokens.status()).toBe(200);
  const body = await tokens.json();
  recordSecrets(body.access_token, body.refresh_token);
  const me = await request.get(`${APP}/v1/me/api-key`, { headers: { authorization: `Bearer ${body.access_token}` } });
  expect(me.status()).toBe(200);

  // An OAuth connector (an MCP client): registered, approved at the consent page, its code exchanged with PKCE.
  const redirect = "http://127.0.0.1:9/callback"; // never reached: answered by the test
  const registered = await request.post(`${APP}/oauth/register`, {
    data: { redirect_uris: [redirect], client_name: "SSO Connector" },
  });
  expect(registered.status()).toBe(201);
  const clientId = (await registered.json()).client_id as string;
  const verifier = randomBytes(32).toString("base64url");
  await page.route(`${redirect}**`, (route) => route.fulfill({ contentType: "text/html", body: "<p>back</p>" }));
  const authorize = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirect,
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
    state: "sso",
    scope: "api",
  });
  await page.goto(`/oauth/authorize?${authorize}`);
  await expect(page.getByTestId("consent-client")).toHaveText("SSO Connector");
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL(`${redirect}**`);
  const exchange = await request.post(`${APP}/oauth/token`, {
    form: {
      grant_type: "authorization_code",
      code: new URL(page.url()).searchParams.get("code")!,
      redirect_uri: redirect,
      client_id: clientId,
      code_verifier: verifier,
    },
  });
  expect(exchange.status()).toBe(200);
  const connector = await exchange.json();
  recordSecrets(connector.access_token, connector.refresh_token);
  const viaConnector = await request.get(`${APP}/v1/me/api-key`, {
    headers: { authorization: `Bearer ${connector.access_token}` },
  });
  expect(viaConnector.status()).toBe(200);
  await context.close();
});

test("an e-mail in a domain that is not allowed is refused, and no account is made", async ({ browser }) => {
  const email = randomEmail("eve").replace("@example.test", "@elsewhere.test");
  provider.setPerson("eve", { email, email_verified: true, groups: ["verbatim-admins"] });
  const { context, page } = await freshContext(browser);
  await signInAtProvider(page, "eve");
  await expect(page).toHaveURL(/\/signin\?error=AccessDenied&code=email_domain/);
  await expect(alert(page)).toContainText("domain cannot sign in here");
  expect((await db.query(`SELECT 1 FROM "User" WHERE email = $1`, [email])).rowCount).toBe(0);
  await context.close();
});

test("a person in none of the allowed groups is refused with a sentence, and no account is made", async ({
  browser,
}) => {
  const email = randomEmail("cy").replace("@example.test", "@acme.test");
  provider.setPerson("cy", { email, email_verified: true, groups: ["contractors"] });
  const { context, page } = await freshContext(browser);
  await signInAtProvider(page, "cy");
  await expect(page).toHaveURL(/\/signin\?error=AccessDenied&code=group/);
  await expect(alert(page)).toContainText("does not list you in any of the groups allowed");
  expect((await db.query(`SELECT 1 FROM "User" WHERE email = $1`, [email])).rowCount).toBe(0);
  await context.close();
});

test("a team that requires single sign-on is not opened by an e-mail link's session, and is by the provider's", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const email = randomEmail("forced");
  const locked = `locked-${Date.now().toString(36)}`;
  await db.query(
    `INSERT INTO "User" (id, kind, name, slug, "requireSso", "updatedAt") VALUES ($1, 'team', 'Locked', $1, true, now())`,
    [locked],
  );
  const made = spawnSync(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/signin-link.ts", email], {
    env: appEnv,
    encoding: "utf8",
  });
  expect(made.status, made.stderr).toBe(0);
  const { context, page } = await freshContext(browser);
  await page.goto(/^http\S+$/m.exec(made.stdout)![0]);
  await expect(page).toHaveURL(/\/dashboard$/);
  const { rows } = await db.query<{ id: string }>(`SELECT id FROM "User" WHERE email = $1`, [email]);
  await db.query(`INSERT INTO "Membership" ("teamId", "userId", role, "updatedAt") VALUES ($1, $2, 'member', now())`, [
    locked,
    rows[0].id,
  ]);
  // On a phone the refusal takes a line of its own, under the select it would otherwise squeeze.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  const select = page.getByTestId("workspace-select");
  const before = (await select.boundingBox())!;
  await select.selectOption({ label: "Locked · member" });
  const refusal = page.getByTestId("workspace-switcher").getByRole("alert");
  await expect(refusal).toContainText("Locked requires signing in through single sign-on");
  await expect(page.getByTestId("workspace-current")).toContainText("your own account");
  const after = (await select.boundingBox())!;
  expect(after.width).toBeGreaterThanOrEqual(before.width - 1);
  expect((await refusal.boundingBox())!.y).toBeGreaterThanOrEqual(after.y + after.height);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 800 });

  // The same person through the provider: the team opens.
  provider.setPerson("forced", { email, email_verified: true, groups: ["verbatim-users"] });
  await context.clearCookies({ name: /^authjs\./ });
  await signInAtProvider(page, "forced");
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByTestId("workspace-select").selectOption({ label: "Locked · member" });
  await expect(page.getByTestId("workspace-current")).toContainText("You are in the team Locked as member");
  await context.close();
});

test("the owner requires single sign-on from the Team page, which says the way back in", async ({ browser }) => {
  test.setTimeout(180_000);
  const email = randomEmail("sso-owner").replace("@example.test", "@acme.test");
  provider.setPerson("sso-owner", { email, email_verified: true, groups: ["other"] });
  const { context, page } = await freshContext(browser);
  await signInAtProvider(page, "sso-owner");
  await expect(page).toHaveURL(/\/dashboard$/);
  const slug = `sso-${Date.now().toString(36)}`;
  const made = await page.request.post("/v1/teams", { data: { name: "Sealed", slug }, headers: { origin: APP } });
  expect(made.status(), await made.text()).toBe(201);
  await page.goto("/dashboard/team");

  const setting = page.getByTestId("team-require-sso");
  await expect(setting).toContainText(`npm run team-sso -- ${slug} off`);
  const toggle = setting.getByRole("checkbox", {
    name: "Members act in this team only after signing in through Acme SSO",
  });
  await expect(toggle).not.toBeChecked();
  await toggle.check();
  await page.reload();
  await expect(toggle).toBeChecked();
  const team = (await made.json()) as { id: string };
  expect(await (await page.request.get(`/v1/teams/${team.id}`)).json()).toMatchObject({ require_sso: true });
  await context.close();
});

test("the operator's link gets in with e-mail off; the provider links to that person only for a verified e-mail", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const email = randomEmail("ops");
  const made = spawnSync(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/signin-link.ts", email], {
    env: appEnv,
    encoding: "utf8",
  });
  expect(made.status, made.stderr).toBe(0);
  const link = /^http\S+$/m.exec(made.stdout)![0];
  const { context, page } = await freshContext(browser);
  await page.goto(link);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("user-email")).toHaveText(email);
  const { rows } = await db.query<{ id: string }>(`SELECT id FROM "User" WHERE email = $1`, [email]);
  await context.close();

  // Someone at the provider claims that address without having verified it: refused, nothing linked.
  provider.setPerson("mallory", { email, email_verified: false, groups: ["verbatim-admins"] });
  const { context: attacker, page: mallory } = await freshContext(browser);
  await signInAtProvider(mallory, "mallory");
  await expect(mallory).toHaveURL(/\/signin\?error=AccessDenied&code=email_unverified/);
  await expect(alert(mallory)).toContainText("did not confirm that your e-mail address is verified");
  const linked = `SELECT a."providerAccountId" FROM "Account" a WHERE a."userId" = $1 AND a.provider = 'oidc'`;
  expect((await db.query(linked, [rows[0].id])).rowCount).toBe(0);
  await attacker.close();

  // The same address verified by the provider signs in to the same person.
  provider.setPerson("ops", { email, email_verified: true, groups: ["verbatim-users"] });
  const { context: owner, page: ops } = await freshContext(browser);
  await signInAtProvider(ops, "ops");
  await expect(ops).toHaveURL(/\/dashboard$/);
  expect((await db.query(linked, [rows[0].id])).rows).toEqual([{ providerAccountId: "ops" }]);
  expect(await acmeRole(email)).toBe("member*");
  await owner.close();
});

test("a provider whose discovery names another issuer is refused with a page, not an error", async ({ browser }) => {
  const { context, page } = await freshContext(browser);
  provider.impersonate(true);
  try {
    await page.goto("/signin");
    await page.getByRole("button", { name: SSO }).click();
    await expect(page).toHaveURL(/\/signin\?error=Configuration/);
    await expect(alert(page)).toContainText("not from the service this server trusts");
    expect(log).toMatch(/issuer/);
  } finally {
    provider.impersonate(false);
    await context.close();
  }
});
