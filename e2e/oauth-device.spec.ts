import { createHash, randomBytes } from "node:crypto";
import { expect, type Page } from "@playwright/test";

import { test } from "./fixtures";
import { randomEmail, recordSecrets } from "./helpers";

// The device page (enter or confirm the code, approve, deny), the dashboard's connected apps,
// and the consent page (approve, deny, a signed-out visit comes back after sign-in), in Chromium against the built app. The program's
// side (device code, polling, token exchange) is plain HTTP from the test.

const REDIRECT = "http://127.0.0.1:9/callback"; // never reached: the test answers it (page.route)

/** Signed out on a protected page: sign in with the development login and land back on `back`. */
async function signInAndReturn(page: Page, back: RegExp) {
  await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
  const email = randomEmail("oauth");
  await page.getByLabel(/development login/i).fill(email);
  await page.getByRole("button", { name: "Sign in (development)" }).click();
  await expect(page).toHaveURL(back);
  return email;
}

test.describe("device page", () => {
  test("confirm a code from the link, approve, and the program gets its tokens once", async ({ page, request }) => {
    const started = await (await request.post("/v1/device/code", { form: { client_id: "verbatim-cli" } })).json();
    expect(started.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);

    await page.goto(
      new URL(started.verification_uri_complete).pathname + new URL(started.verification_uri_complete).search,
    );
    await signInAndReturn(page, /\/device\?user_code=/);
    await expect(page.getByTestId("device-user-code")).toHaveText(started.user_code);
    await expect(page.getByTestId("device-client")).toHaveText("verbatim-cli");
    await expect(page.getByTestId("device-origin")).toContainText("127.0.0.1");
    await page.getByRole("button", { name: "Approve" }).click();
    await expect(page.getByRole("status")).toContainText("Approved");

    const tokens = await request.post("/oauth/token", {
      form: { grant_type: "urn:ietf:params:oauth:grant-type:device_code", device_code: started.device_code },
    });
    expect(tokens.status()).toBe(200);
    const body = await tokens.json();
    recordSecrets(body.access_token, body.refresh_token);
    expect(body).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "api" });
    const again = await request.post("/v1/device/token", { data: { device_code: started.device_code } });
    expect(again.status()).toBe(400);
    const me = await request.get("/v1/me/api-key", { headers: { authorization: `Bearer ${body.access_token}` } });
    expect(me.status()).toBe(200);

    // The dashboard lists the device login with its last use; disconnecting ends its tokens.
    await page.goto("/dashboard/keys");
    const row = page.getByTestId("connection").filter({ hasText: "verbatim-cli" });
    await expect(row).toContainText("Device login");
    await expect(row).not.toContainText("never");
    await row.getByRole("button", { name: "Disconnect" }).click();
    await expect(page.getByTestId("connection")).toHaveCount(0);
    const after = await request.get("/v1/me/api-key", { headers: { authorization: `Bearer ${body.access_token}` } });
    expect(after.status()).toBe(401);
  });

  test("enter a code by hand (any case, no dash), and deny", async ({ page, request }) => {
    const started = await (await request.post("/v1/device/code")).json();
    await page.goto("/device");
    await signInAndReturn(page, /\/device$/);
    await page.getByLabel(/code shown on your device/i).fill("zzzz-zzzz");
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByText(/No pending request has this code/)).toBeVisible();
    await page.getByLabel(/code shown on your device/i).fill(started.user_code.replace("-", "").toLowerCase());
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByTestId("device-user-code")).toHaveText(started.user_code);
    await expect(page.getByTestId("device-client")).toHaveText("not named");
    await page.getByRole("button", { name: "Deny" }).click();
    await expect(page.getByRole("status")).toContainText("Denied");
    const poll = await request.post("/v1/device/token", { data: { device_code: started.device_code } });
    expect(poll.status()).toBe(400);
    expect(await poll.json()).toMatchObject({ error: "access_denied" });
  });
});

test.describe("consent page", () => {
  async function registeredClient(request: import("@playwright/test").APIRequestContext) {
    const res = await request.post("/oauth/register", {
      data: { redirect_uris: [REDIRECT], client_name: "E2E Connector" },
    });
    expect(res.status()).toBe(201);
    return (await res.json()).client_id as string;
  }

  function authorizeUrl(clientId: string, challenge: string, state: string, redirectUri = REDIRECT) {
    const query = new URLSearchParams({
      response_type: "code",
      client_id: clientId,
      redirect_uri: redirectUri,
      code_challenge: challenge,
      code_challenge_method: "S256",
      state,
      scope: "api",
    });
    return `/oauth/authorize?${query}`;
  }

  test("a signed-out visit signs in, comes back, approves, and the code is exchanged with PKCE", async ({
    page,
    request,
  }) => {
    const clientId = await registeredClient(request);
    const verifier = randomBytes(32).toString("base64url");
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    await page.route(`${REDIRECT}**`, (route) =>
      route.fulfill({ contentType: "text/html", body: "<p>back at the app</p>" }),
    );

    await page.goto(authorizeUrl(clientId, challenge, "st-1"));
    await signInAndReturn(page, /\/oauth\/authorize\?/);
    await expect(page.getByTestId("consent-client")).toHaveText("E2E Connector");
    await expect(page.getByTestId("consent-redirect-host")).toHaveText("127.0.0.1:9");
    // What it may not do, from the permission table (lib/http/permissions.ts).
    await expect(page.getByTestId("consent-cannot")).toContainText("API key");
    await expect(page.getByTestId("consent-cannot")).toContainText("paid plan");
    await page.getByRole("button", { name: "Allow" }).click();
    await page.waitForURL(`${REDIRECT}**`);
    const back = new URL(page.url());
    expect(back.searchParams.get("state")).toBe("st-1");
    expect(back.searchParams.get("iss")).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const exchange = await request.post("/oauth/token", {
      form: {
        grant_type: "authorization_code",
        code: back.searchParams.get("code")!,
        redirect_uri: REDIRECT,
        client_id: clientId,
        code_verifier: verifier,
      },
    });
    expect(exchange.status()).toBe(200);
    expect(exchange.headers()["cache-control"]).toBe("no-store");
    const tokens = await exchange.json();
    recordSecrets(tokens.access_token, tokens.refresh_token);
    const me = await request.get("/v1/me/api-key", { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(me.status()).toBe(200);

    // Approved now: a later invalid request of this client sends the person back to it by itself.
    const invalid = new URLSearchParams(authorizeUrl(clientId, challenge, "st-1b").split("?")[1]);
    invalid.set("scope", "admin");
    // Asked with the page's own cookies, not navigated: Chromium refuses to follow a redirect to port 9.
    const again = await page.request.get(`/oauth/authorize?${invalid}`, { maxRedirects: 0 });
    expect(again.status()).toBeGreaterThanOrEqual(300);
    expect(again.status()).toBeLessThan(400);
    const refused = new URL(again.headers()["location"]!);
    expect(refused.href.startsWith(REDIRECT)).toBe(true);
    expect(refused.searchParams.get("error")).toBe("invalid_scope");
    expect(refused.searchParams.get("state")).toBe("st-1b");
  });

  test("deny sends the browser back with access_denied; an unregistered redirect URI is never followed", async ({
    page,
    request,
  }) => {
    const clientId = await registeredClient(request);
    await page.route(`${REDIRECT}**`, (route) =>
      route.fulfill({ contentType: "text/html", body: "<p>back at the app</p>" }),
    );
    const challenge = createHash("sha256").update("x".repeat(50)).digest("base64url");

    await page.goto(authorizeUrl(clientId, challenge, "st-2"));
    await signInAndReturn(page, /\/oauth\/authorize\?/);
    await page.getByRole("button", { name: "Deny" }).click();
    await page.waitForURL(`${REDIRECT}**`);
    const back = new URL(page.url());
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("state")).toBe("st-2");
    expect(back.searchParams.get("code")).toBeNull();

    await page.goto(authorizeUrl(clientId, challenge, "st-3", "https://evil.example/callback"));
    await expect(page.getByRole("heading", { name: "This link cannot be used" })).toBeVisible();
    await expect(page.getByText("The redirect URI is not one this app registered.")).toBeVisible();
  });

  test("an invalid request of a client the person never approved is shown, naming it, with a link back carrying the error and state", async ({
    page,
    request,
  }) => {
    const clientId = await registeredClient(request);
    const challenge = createHash("sha256").update("y".repeat(50)).digest("base64url");
    const valid = new URLSearchParams(authorizeUrl(clientId, challenge, "st-4").split("?")[1]);
    const variants: [string, (q: URLSearchParams) => void][] = [
      ["unsupported_response_type", (q) => q.set("response_type", "token")],
      ["invalid_request", (q) => q.delete("code_challenge")],
      ["invalid_request", (q) => q.set("code_challenge_method", "plain")],
      ["invalid_scope", (q) => q.set("scope", "admin")],
      ["invalid_target", (q) => q.set("resource", "https://evil.example/")],
    ];
    // Anyone can register a client with any redirect URI: the browser is never sent there by itself (RFC 9700
    // 4.11.2), the page names the client and where its link leads.
    for (const [error, change] of variants) {
      const query = new URLSearchParams(valid);
      change(query);
      await page.goto(`/oauth/authorize?${query}`);
      expect(new URL(page.url()).pathname, error).toBe("/oauth/authorize");
      await expect(page.getByTestId("authorize-error-client")).toContainText("E2E Connector");
      await expect(page.getByTestId("authorize-error-host")).toHaveText("127.0.0.1:9");
      const back = new URL((await page.getByTestId("authorize-error-back").getAttribute("href"))!);
      expect(back.origin + back.pathname).toBe(REDIRECT);
      expect(back.searchParams.get("error"), error).toBe(error);
      expect(back.searchParams.get("state")).toBe("st-4");
      expect(back.searchParams.get("iss")).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(back.searchParams.get("code")).toBeNull();
    }
  });
});
