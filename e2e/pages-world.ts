import { expect, type Page } from "@playwright/test";
import { devLogin, randomEmail } from "./helpers";
import { FAKE_IDS } from "../test/fakes/youtube/ids";

// The pages the page-wide scan visits (all-pages.spec.ts: layout, axe and both schemes' contrast), and the user
// whose data fills them.

export const WATCH_URL = `https://www.youtube.com/watch?v=${FAKE_IDS.captioned}`;

/** A 1×1 PNG standing in for YouTube's thumbnails (no network here). */
const PIXEL = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);

export async function stubThirdParties(page: Page): Promise<void> {
  await page.route("https://i.ytimg.com/**", (route) => route.fulfill({ contentType: "image/png", body: PIXEL }));
  // The embedded players are third-party pages: not loaded here (no network), not ours to audit.
  await page.route(/^https:\/\/(www\.youtube-nocookie\.com|player\.vimeo\.com)\//, (route) =>
    route.fulfill({ contentType: "text/html", body: "<!doctype html><title>player</title>" }),
  );
}

export interface World {
  slug: string;
  transcriptId: string;
  consent: string;
  deviceCode: string;
}

/**
 * Signs `page`'s context in as a new user with history (a transcript, a failed request), a published page, an
 * API key, a pending device code and an OAuth client waiting for consent.
 */
export async function makeWorld(page: Page, emailPrefix: string): Promise<World> {
  await devLogin(page, randomEmail(emailPrefix));
  const api = page.request;
  const ok = await api.post("/v1/transcript", { data: { url: WATCH_URL, lang: "en" } });
  expect(ok.status()).toBe(200);
  expect(
    (
      await api.post("/v1/transcript", {
        data: { url: `https://www.youtube.com/watch?v=${FAKE_IDS.private}`, lang: "en" },
      })
    ).ok(),
  ).toBe(false);
  const published = await api.post("/v1/publish", { data: { url: WATCH_URL, lang: "en" } });
  expect(published.status()).toBe(200);
  const { slug } = await published.json();
  expect((await api.post("/v1/me/api-key/ensure")).ok()).toBe(true);
  const device = await (await api.post("/v1/device/code", { form: { client_id: "verbatim-cli" } })).json();
  const client = await (
    await api.post("/oauth/register", {
      data: { redirect_uris: ["http://127.0.0.1:9/callback"], client_name: "Pages Connector" },
    })
  ).json();
  const consent = `/oauth/authorize?${new URLSearchParams({
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: "http://127.0.0.1:9/callback",
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    code_challenge_method: "S256",
    state: emailPrefix,
    scope: "api",
  })}`;
  const destination = await api.post("/v1/exports/destinations", {
    data: {
      kind: "notion",
      name: "Research notes",
      database_id: "0f3c7a1e-98b2-4c55-9d1a-2b7e6f0c4d11",
      token: "ntn_pages_world_token",
    },
  });
  expect(destination.status()).toBe(201);
  const team = await api.post("/v1/teams", { data: { name: "Pages team" } });
  expect(team.status()).toBe(201);
  const teamId = (await team.json()).id as string;
  expect(
    (await api.post(`/v1/teams/${teamId}/invitations`, { data: { email: randomEmail("pages-invited") } })).status(),
  ).toBe(201);
  expect(
    (
      await api.post(`/v1/teams/${teamId}/keys`, { data: { name: "Pages CMS", scopes: ["read", "transcribe"] } })
    ).status(),
  ).toBe(201);
  return { slug, transcriptId: (await ok.json()).id, consent, deviceCode: device.user_code };
}

export interface PageEntry {
  name: string;
  path: string;
  /** Visited without the session cookie. */
  signedOut?: boolean;
  /** What proves the page has rendered. */
  ready: (page: Page) => ReturnType<Page["getByTestId"]>;
  /** Typed into the transcript's search box once the page is ready. */
  search?: string;
}

/** Every page of the product, with `world`'s data in it. */
export function productPages(world: World): PageEntry[] {
  return [
    { name: "home", path: "/", signedOut: true, ready: (p) => p.getByTestId("link-box") },
    {
      name: "signin",
      path: "/signin",
      signedOut: true,
      ready: (p) => p.getByRole("heading", { name: "Sign in to Verbatim" }),
    },
    { name: "explore", path: "/explore", signedOut: true, ready: (p) => p.getByRole("heading", { level: 1 }) },
    {
      name: "docs",
      path: "/docs",
      signedOut: true,
      ready: (p) => p.getByRole("heading", { name: /Transcripts/ }).first(),
    },
    { name: "not-found", path: "/no-such-page", signedOut: true, ready: (p) => p.getByTestId("not-found") },
    {
      name: "public-transcript",
      path: `/t/${world.slug}`,
      signedOut: true,
      ready: (p) => p.getByTestId("paragraph").first(),
    },
    { name: "transcribe", path: "/dashboard", ready: (p) => p.getByRole("heading", { name: "Transcribe", level: 1 }) },
    {
      name: "transcript",
      path: `/dashboard?transcript=${world.transcriptId}`,
      ready: (p) => p.getByTestId("paragraph").first(),
    },
    {
      name: "transcript-search",
      path: `/dashboard?transcript=${world.transcriptId}`,
      ready: (p) => p.getByTestId("paragraph").first(),
      search: "dough",
    },
    { name: "history", path: "/dashboard/history", ready: (p) => p.getByTestId("history-row").first() },
    {
      name: "imports",
      path: "/dashboard/imports",
      ready: (p) => p.getByRole("heading", { name: "Imports", level: 1 }),
    },
    { name: "published", path: "/dashboard/published", ready: (p) => p.getByTestId("published-row").first() },
    { name: "billing", path: "/dashboard/billing", ready: (p) => p.getByTestId("current-tier") },
    { name: "keys", path: "/dashboard/keys", ready: (p) => p.getByTestId("key-prefix") },
    {
      name: "alerts",
      path: "/dashboard/alerts",
      ready: (p) => p.getByRole("heading", { name: "Alerts", level: 1 }),
    },
    {
      name: "exports",
      path: "/dashboard/exports",
      ready: (p) => p.getByTestId("export-destination").first(),
    },
    {
      name: "webhooks",
      path: "/dashboard/webhooks",
      ready: (p) => p.getByRole("heading", { name: "Webhooks", level: 1 }),
    },
    { name: "team", path: "/dashboard/team", ready: (p) => p.getByTestId("audit-event").first() },
    {
      name: "invite",
      path: `/invite/${"x".repeat(43)}`,
      ready: (p) => p.getByRole("heading", { name: "Join a team", level: 1 }),
    },
    { name: "device", path: `/device?user_code=${world.deviceCode}`, ready: (p) => p.getByTestId("device-user-code") },
    { name: "consent", path: world.consent, ready: (p) => p.getByTestId("consent-client") },
  ];
}
