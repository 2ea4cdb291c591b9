import { createHmac, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startTestApps } from "../apps";
import { randomEmail } from "../emails";
import { ContractChecker, type OpenApiDocument } from "../openapi-contract";
import { checkServerLogs, recordSecrets } from "../secrets";
import { makeWav } from "../uploads";
import { seedVerbatimCatalog } from "../fakes/stripe/catalog";
import { signEvent, startFakeStripe, type FakeStripe } from "../fakes/stripe/server";
import { startFakePodcastServer, type FakePodcastServer } from "../fakes/podcasts/server";
import { FAKE_IDS } from "../fakes/youtube/ids";
import {
  CONTRACT_AUTH_SECRET,
  CONTRACT_STRIPE_WEBHOOK_SECRET,
  contractApp,
  contractAppLog,
  contractAppPort,
} from "./contract-app";
import { anonymous, signIn, type APIRequestContext, type APIResponse } from "./http";
import { startDnsServer, type TestDnsServer } from "../dns-server";

// The API exactly as documented, through the built server (`next start`). Every operation of the
// /openapi.json this server serves is called without credentials, signed in with unknown ids and with empty and
// broken bodies, and then with valid input until it succeeds; every answer's status, Content-Type and body are
// checked against that document with Ajv (test/openapi-contract.ts). An undocumented status, a media type the
// document does not list or a body that does not match fails the test, and so does an operation with no 2xx/3xx.
//
// Its own app (test/server/contract-app.ts: billing on against a fake Stripe run here, a fake podcast host, an
// AUTH_SECRET this test knows). The figures go to test-results/contract-coverage.json and the output.

let baseURL: string;
let stopApp: (() => Promise<void>) | undefined;
let stripe: FakeStripe | undefined;
let podcasts: FakePodcastServer | undefined;
let dns: TestDnsServer | undefined;
let checker: ContractChecker;
let operations: string[];
const contexts: APIRequestContext[] = [];

beforeAll(async () => {
  stripe = await startFakeStripe({
    webhook: {
      url: `http://127.0.0.1:${contractAppPort()}/v1/webhooks/billing`,
      secret: CONTRACT_STRIPE_WEBHOOK_SECRET,
      auto: true,
    },
  });
  seedVerbatimCatalog(stripe);
  podcasts = await startFakePodcastServer();
  dns = await startDnsServer();
  const app = contractApp({
    stripeOrigin: stripe.origin,
    stripeKey: stripe.apiKey,
    podcastsOrigin: podcasts.origin,
    dnsServer: dns.address,
  });
  baseURL = app.origin;
  stopApp = await startTestApps([app], path.resolve(import.meta.dirname, "../.."));
  const document = (await (await fetch(`${baseURL}/openapi.json`)).json()) as OpenApiDocument;
  checker = new ContractChecker(document);
  operations = Object.entries(document.paths).flatMap(([p, methods]) =>
    Object.keys(methods).map((method) => `${method.toUpperCase()} ${p}`),
  );
});

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.dispose()));
  await stopApp?.();
  await stripe?.close();
  await podcasts?.close();
  await dns?.close();
  // Nothing this app was configured with or handed out here is in its log (global-setup.ts reads it too).
  checkServerLogs({
    logs: (name) => name === path.basename(contractAppLog()),
    configured: [CONTRACT_AUTH_SECRET, CONTRACT_STRIPE_WEBHOOK_SECRET, stripe?.apiKey ?? ""].filter(Boolean),
  });
});

interface Call {
  query?: string;
  /** JSON (an object), or a raw string with its own content-type header. */
  body?: unknown;
  headers?: Record<string, string>;
}

/** `METHOD /path/{param}` with `values` for its parameters, checked against the document; the answer. */
async function call(
  context: APIRequestContext,
  operation: string,
  values: Record<string, string> = {},
  { query = "", body, headers = {} }: Call = {},
): Promise<{ response: APIResponse; status: number; json: unknown; text: string }> {
  const [method, template] = operation.split(" ");
  const url =
    template.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(values[name] ?? "nothing")) + query;
  const raw = typeof body === "string";
  const response = await context.fetch(url, {
    method,
    maxRedirects: 0,
    headers: raw ? headers : body === undefined ? headers : { "content-type": "application/json", ...headers },
    data: body === undefined ? undefined : raw ? body : JSON.stringify(body),
  });
  const text = (await response.body()).toString("latin1");
  const problems = checker.check({
    method,
    url,
    status: response.status(),
    contentType: response.headers()["content-type"] ?? null,
    text: /json|text/.test(response.headers()["content-type"] ?? "") ? await response.text() : text,
  });
  expect(problems, `${operation}${query}`).toEqual([]);
  let json: unknown = null;
  try {
    json = JSON.parse(await response.text());
  } catch {
    // not JSON: media, text formats, an empty body
  }
  // Keys, tokens and signing secrets handed out here must not reach the log (checked in afterAll).
  recordSecrets(
    ...Array.from(JSON.stringify(json ?? null).matchAll(/"((?:vbt|vat|vrt|whsec)_[^"]+)"/g), (match) => match[1]),
  );
  return { response, status: response.status(), json, text };
}

/** Calls until `done(answer)` holds (a job, an import, a webhook's effect); every answer is checked. */
async function until<T extends { json: unknown }>(ask: () => Promise<T>, done: (answer: T) => boolean): Promise<T> {
  for (;;) {
    const answer = await ask();
    if (done(answer)) return answer;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const isSuccess = (status: number) => status >= 200 && status < 400;

test("every operation answers only as /openapi.json documents, and each succeeds at least once", async () => {
  expect(operations).toHaveLength(122);
  const request = await anonymous(baseURL);
  const me = await signIn(baseURL, randomEmail("contract"));
  contexts.push(request, me);

  // Errors: each operation without credentials, then signed in with unknown ids and an empty or broken body.
  // (Ending the session is left to the end.)
  for (const operation of operations) {
    const withBody = !operation.startsWith("GET ") && !operation.startsWith("DELETE ");
    const body = withBody ? {} : undefined;
    await call(request, operation, {}, { body });
    if (operation === "POST /v1/me/sessions/revoke") continue;
    await call(me, operation, {}, { body });
    if (withBody) await call(me, operation, {}, { body: "{not json", headers: { "content-type": "application/json" } });
  }

  // Successes.
  await call(request, "GET /health");
  await call(request, "GET /v1/plans");
  await call(request, "GET /.well-known/oauth-authorization-server");
  await call(me, "GET /v1/me");
  await call(me, "POST /v1/me/api-key/ensure");
  await call(me, "GET /v1/me/api-key");
  await call(me, "POST /v1/me/api-key/regenerate");
  await call(me, "GET /v1/me/subscription");

  // A YouTube video with captions (the fake), in every format.
  const video = `https://www.youtube.com/watch?v=${FAKE_IDS.captioned}`;
  await call(request, "GET /v1/languages", {}, { query: `?url=${encodeURIComponent(video)}` });
  const captioned = await call(me, "POST /v1/transcript", {}, { body: { url: video, lang: "en" } });
  expect(captioned.status).toBe(200);
  const transcript = captioned.json as { id: string; source_url: string; lang: string };
  for (const format of ["json", "text", "srt", "vtt", "md"]) {
    await call(me, "GET /v1/transcripts/{id}", { id: transcript.id }, { query: `?format=${format}` });
    await call(me, "GET /v1/transcripts/{id}/download", { id: transcript.id }, { query: `?format=${format}` });
  }
  await call(me, "GET /v1/me/transcriptions");
  await call(me, "GET /v1/me/search", {}, { query: "?q=hello" });

  // Corrections: a revision, the list, its diff against the original, then the original restored.
  const full = await call(me, "GET /v1/transcripts/{id}", { id: transcript.id });
  const segments = (full.json as { segments: { start: number; end: number; text: string }[] }).segments;
  const edited = await call(
    me,
    "PATCH /v1/transcripts/{id}",
    { id: transcript.id },
    { body: { segments: segments.map((s, i) => (i === 0 ? { ...s, text: `${s.text} (corrected)` } : s)) } },
  );
  expect(edited.status, edited.text).toBe(200);
  await call(me, "GET /v1/transcripts/{id}/revisions", { id: transcript.id });
  await call(me, "GET /v1/transcripts/{id}/revisions/{revision_id}/diff", {
    id: transcript.id,
    revision_id: "current",
  });
  await call(me, "DELETE /v1/transcripts/{id}/edits", { id: transcript.id });

  // Notes out: the transcript as its Markdown note; a destination kept, listed and removed (deleted before its
  // first delivery is due).
  await call(me, "POST /v1/exports", {}, { body: { ids: [transcript.id] } });
  const destination = await call(
    me,
    "POST /v1/exports/destinations",
    {},
    { body: { kind: "notion", database_id: "0123456789abcdef0123456789abcdef", token: "secret_contract-token" } },
  );
  await call(me, "GET /v1/exports/destinations");
  await call(me, "DELETE /v1/exports/destinations/{id}", { id: (destination.json as { id: string }).id });

  // An upload, transcribed by the speech fake: a job, then the file's media, whole and by range.
  const signed = await call(
    me,
    "POST /v1/uploads/sign",
    {},
    { body: { filename: "tone.wav", content_type: "audio/wav" } },
  );
  const { upload_url, object_path } = signed.json as { upload_url: string; object_path: string };
  const put = await me.put(upload_url, { data: makeWav(2), headers: { "content-type": "audio/wav" } });
  expect(put.status(), await put.text()).toBeLessThan(300);
  const started = await call(me, "POST /v1/transcript", {}, { body: { upload: object_path } });
  expect(started.status).toBe(202);
  const { job_id } = started.json as { job_id: string };
  const job = await until(
    () => call(me, "GET /v1/jobs/{job_id}", { job_id }),
    ({ json }) => ["done", "error"].includes((json as { status: string }).status),
  );
  const fromUpload = (job.json as { status: string; transcript: { id: string } | null }).transcript;
  expect(fromUpload, JSON.stringify(job.json)).not.toBeNull();
  const media = await call(me, "GET /v1/transcripts/{id}/media", { id: fromUpload!.id });
  expect(media.status).toBe(200);
  const ranged = await call(
    me,
    "GET /v1/transcripts/{id}/media",
    { id: fromUpload!.id },
    { headers: { range: "bytes=0-99" } },
  );
  expect(ranged.status).toBe(206);
  expect(ranged.text).toHaveLength(100);
  await call(
    request,
    "POST /v1/webhooks/assemblyai",
    {},
    {
      body: { transcript_id: "not-ours", status: "completed" },
      headers: {
        "x-verbatim-webhook": createHmac("sha256", CONTRACT_AUTH_SECRET)
          .update("assemblyai-webhook")
          .digest("base64url"),
      },
    },
  );

  // Publishing: the public page (and its 304), its downloads and a podcast feed's files, the index and search; then
  // unpublished.
  const published = await call(
    me,
    "POST /v1/publish",
    {},
    { body: { url: transcript.source_url, lang: transcript.lang } },
  );
  const { slug } = published.json as { slug: string };
  const page = await call(request, "GET /v1/public/{slug}", { slug });
  const etag = page.response.headers().etag;
  expect(etag).toBeTruthy();
  const unchanged = await call(request, "GET /v1/public/{slug}", { slug }, { headers: { "if-none-match": etag } });
  expect(unchanged.status).toBe(304);
  for (const format of ["json", "text", "srt", "vtt", "md"])
    await call(request, "GET /v1/public/{slug}/download", { slug }, { query: `?format=${format}` });
  for (const kind of ["vtt", "srt", "json", "html"]) {
    const feedFile = await call(request, `GET /v1/public/{slug}/transcript.${kind}`, { slug });
    expect(feedFile.response.headers()["access-control-allow-origin"]).toBe("*");
  }
  await call(request, "GET /v1/public/index");
  await call(request, "GET /v1/public/search", {}, { query: "?q=hello" });
  await call(me, "DELETE /v1/publish/{slug}", { slug });

  // A podcast (the fake host): resolved, then imported with audio the speech step cannot read, so its items fail
  // and one can be retried.
  const feed = `${podcasts!.origin}/generated/2.xml?prefix=contract`;
  await call(me, "POST /v1/podcast/resolve", {}, { body: { url: feed } });
  podcasts!.audio = Buffer.from("not audio at all");
  const imported = await call(me, "POST /v1/import", {}, { body: { url: feed } });
  const { batch_id } = imported.json as { batch_id: string };
  await until(
    () => call(me, "GET /v1/import/{batch_id}", { batch_id }),
    ({ json }) => ["done", "partial", "error"].includes((json as { status: string }).status),
  );
  await call(me, "GET /v1/import");
  const items = await call(me, "GET /v1/import/{batch_id}/items", { batch_id });
  const failed = (items.json as { items: { guid: string; status: string }[] }).items.find((i) => i.status === "failed");
  expect(failed, JSON.stringify(items.json)).toBeDefined();
  await call(me, "POST /v1/import/{batch_id}/items/retry", { batch_id }, { body: { guid: failed!.guid } });

  // A batch of links: an episode whose audio the speech step cannot read (so it fails and is retried) and a line
  // with no link (skipped); its zip.
  const listed = await call(
    me,
    "POST /v1/batches",
    {},
    { body: { links: [`${podcasts!.origin}/ex/contract-batch.mp3`, "no link"] } },
  );
  const linkBatch = (listed.json as { id: string }).id;
  await until(
    () => call(me, "GET /v1/batches/{batch_id}", { batch_id: linkBatch }),
    ({ json }) => ["done", "partial", "error"].includes((json as { status: string }).status),
  );
  await call(me, "POST /v1/batches/{batch_id}/retry", { batch_id: linkBatch });
  await call(me, "GET /v1/batches/{batch_id}/download", { batch_id: linkBatch }, { query: "?formats=srt,md" });

  // A follow of the same feed: listed, changed, checked now, paused, resumed and deleted.
  const followed = await call(me, "POST /v1/follows", {}, { body: { url: feed } });
  const follow = (followed.json as { id: string }).id;
  await call(me, "GET /v1/follows");
  await call(me, "GET /v1/follows/{id}", { id: follow });
  await call(me, "PATCH /v1/follows/{id}", { id: follow }, { body: { state: "paused" } });
  await call(me, "PATCH /v1/follows/{id}", { id: follow }, { body: { state: "active" } });
  await call(me, "POST /v1/follows/{id}/check", { id: follow });
  // An alert of chosen follows given another show, which it follows first.
  const watching = await call(
    me,
    "POST /v1/alerts",
    {},
    { body: { query: "bread rises", scope: { kind: "follows", follow_ids: [follow] } } },
  );
  const watchingId = (watching.json as { id: string }).id;
  const given = await call(
    me,
    "POST /v1/alerts/{id}/follows",
    { id: watchingId },
    { body: { url: `${podcasts!.origin}/generated/1.xml?prefix=contractwatch` } },
  );
  expect((given.json as { scope: { follow_ids: string[] } }).scope.follow_ids).toHaveLength(2);
  await call(me, "DELETE /v1/alerts/{id}", { id: watchingId });
  await call(me, "DELETE /v1/follows/{id}", { id: follow });
  // An alert: saved, listed, read, paused, previewed, its inbox read and marked, its feed rotated and read, deleted.
  const alerted = await call(me, "POST /v1/alerts", {}, { body: { query: "bread rises", scope: { kind: "library" } } });
  const alert = alerted.json as { id: string; feed_url: string };
  await call(me, "GET /v1/alerts");
  await call(me, "GET /v1/alerts/{id}", { id: alert.id });
  await call(me, "PATCH /v1/alerts/{id}", { id: alert.id }, { body: { paused: true } });
  await call(me, "POST /v1/alerts/{id}/preview", { id: alert.id });
  await call(me, "POST /v1/alerts/preview", {}, { body: { query: "bread rises", scope: { kind: "library" } } });
  await call(me, "GET /v1/alerts/{id}/matches", { id: alert.id });
  await call(me, "POST /v1/alerts/{id}/read", { id: alert.id }, { body: {} });
  const rotated = (await call(me, "POST /v1/alerts/{id}/rotate-feed", { id: alert.id })).json as typeof alert;
  expect(rotated.feed_url).not.toBe(alert.feed_url);
  await call(request, "GET /alerts/{token}/feed.xml", { token: rotated.feed_url.split("/").at(-2)! });
  await call(me, "DELETE /v1/alerts/{id}", { id: alert.id });
  // A show whose episodes carry their own transcripts, its newest published by the follow: its feed answers.
  const show = await call(
    me,
    "POST /v1/follows",
    {},
    {
      body: {
        url: `${podcasts!.origin}/generated/2.xml?prefix=contractshow&transcripts=1`,
        backfill: 1,
        publish: true,
      },
    },
  );
  const showSlug = (show.json as { show_url: string }).show_url.split("/").at(-1)!;
  await until(
    () => call(request, "GET /s/{slug}/feed.xml", { slug: showSlug }),
    ({ status }) => status === 200,
  );
  // What a WebSub hub calls: an unsubscribe at a callback no follow has is confirmed; an unsigned push is
  // acknowledged (and ignored).
  const hubQuery = new URLSearchParams({ "hub.mode": "unsubscribe", "hub.topic": feed, "hub.challenge": "contract" });
  const token = randomBytes(32).toString("base64url");
  await call(request, "GET /v1/webhooks/websub/{token}", { token }, { query: `?${hubQuery}` });
  await call(
    request,
    "POST /v1/webhooks/websub/{token}",
    { token },
    { body: "<feed/>", headers: { "content-type": "application/atom+xml" } },
  );

  // Webhook endpoints: a test event makes a delivery, which is sent again.
  const created = await call(
    me,
    "POST /v1/me/webhooks",
    {},
    {
      body: { url: "https://hooks.example.com/verbatim", event_types: ["transcript.completed"] },
    },
  );
  const hook = (created.json as { id: string }).id;
  await call(me, "GET /v1/me/webhooks");
  await call(me, "POST /v1/me/webhooks/{id}/test", { id: hook });
  const deliveries = await call(me, "GET /v1/me/webhooks/{id}/deliveries", { id: hook });
  const delivery = (deliveries.json as { deliveries: { id: string }[] }).deliveries[0];
  expect(delivery, JSON.stringify(deliveries.json)).toBeDefined();
  await call(me, "POST /v1/me/webhooks/{id}/deliveries/{delivery_id}/redeliver", {
    id: hook,
    delivery_id: delivery.id,
  });
  await call(me, "POST /v1/me/webhooks/{id}/rotate-secret", { id: hook });
  await call(me, "POST /v1/me/webhooks/request-secret");
  await call(me, "DELETE /v1/me/webhooks/{id}", { id: hook });

  // The device flow, approved once and denied once.
  const device = await call(request, "POST /v1/device/code", {}, { body: { client_id: "verbatim-cli" } });
  const { device_code, user_code } = device.json as { device_code: string; user_code: string };
  await call(me, "POST /v1/device/approve", {}, { body: { user_code } });
  await call(request, "POST /v1/device/token", {}, { body: { device_code } });
  const denied = await call(request, "POST /v1/device/code", {}, { body: { client_id: "verbatim-cli" } });
  await call(me, "POST /v1/device/deny", {}, { body: { user_code: (denied.json as { user_code: string }).user_code } });

  // OAuth: a registered client, a grant, tokens, a revoked refresh token, the connection removed.
  const redirect_uri = "http://127.0.0.1:33418/callback";
  const client = await call(request, "POST /oauth/register", {}, { body: { redirect_uris: [redirect_uri] } });
  const { client_id } = client.json as { client_id: string };
  const authorized = await call(
    me,
    "POST /v1/oauth/authorize",
    {},
    {
      body: {
        client_id,
        redirect_uri,
        scope: "api",
        code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", // RFC 7636 appendix B
        code_challenge_method: "S256",
        state: "s",
        decision: "approve",
      },
    },
  );
  const code = new URL((authorized.json as { redirect_to: string }).redirect_to).searchParams.get("code") ?? "";
  const form = { "content-type": "application/x-www-form-urlencoded" };
  const tokens = await call(
    request,
    "POST /oauth/token",
    {},
    {
      headers: form,
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri,
        code_verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",
        client_id,
      }).toString(),
    },
  );
  const { refresh_token } = tokens.json as { refresh_token: string };
  await call(
    request,
    "POST /oauth/revoke",
    {},
    {
      headers: form,
      body: new URLSearchParams({ token: refresh_token, client_id }).toString(),
    },
  );
  const connections = await call(me, "GET /v1/me/connections");
  const connection = (connections.json as { items: { id: string }[] }).items[0];
  expect(connection, JSON.stringify(connections.json)).toBeDefined();
  await call(me, "DELETE /v1/me/connections/{id}", { id: connection.id });

  // Billing against the fake Stripe: Checkout paid on its hosted page (its webhook makes the user pro), an
  // upgrade, a downgrade scheduled and undone, cancel and resume, a reconcile, the portal, and a webhook sent here.
  const checkout = await call(me, "POST /v1/checkout", {}, { body: { tier: "pro" } });
  const pay = await request.post((checkout.json as { url: string }).url, { form: {}, maxRedirects: 0 });
  expect(pay.status(), await pay.text()).toBeLessThan(400);
  await until(
    () => call(me, "GET /v1/me/subscription"),
    ({ json }) => (json as { tier: string }).tier === "pro",
  );
  await call(me, "POST /v1/me/subscription/change", {}, { body: { tier: "ultra" } });
  await call(me, "POST /v1/me/subscription/change", {}, { body: { tier: "pro" } });
  await call(me, "DELETE /v1/me/subscription/change");
  await call(me, "POST /v1/me/subscription/cancel");
  await call(me, "POST /v1/me/subscription/resume");
  await call(me, "POST /v1/me/subscription/reconcile");
  await call(me, "POST /v1/me/portal");
  const event = stripe!.events.find((e) => e.type === "customer.created");
  const signedEvent = signEvent(event!, CONTRACT_STRIPE_WEBHOOK_SECRET);
  await call(
    request,
    "POST /v1/webhooks/billing",
    {},
    {
      body: signedEvent.body,
      headers: { "content-type": "application/json", "stripe-signature": signedEvent.header },
    },
  );

  await call(me, "DELETE /v1/me/transcriptions/{id}", { id: await transcriptionOf(me, transcript.id) });

  // A team: made, renamed, joined through an e-mailed invitation, its member promoted and handed the team, its
  // activity and usage read, chosen as the dashboard's workspace and back, left and deleted.
  const made = await call(me, "POST /v1/teams", {}, { body: { name: "Contract Newsroom" } });
  expect(made.status, made.text).toBe(201);
  const team_id = (made.json as { id: string }).id;
  await call(me, "GET /v1/teams");
  await call(me, "GET /v1/teams/{team_id}", { team_id });
  await call(me, "PATCH /v1/teams/{team_id}", { team_id }, { body: { name: "Contract Desk" } });
  // Its domain: claimed, checked before and after its TXT record is published, listed and deleted.
  const domain = `contract-${Date.now().toString(36)}.test`;
  const claimed = await call(me, "POST /v1/teams/{team_id}/domains", { team_id }, { body: { domain } });
  expect(claimed.status, claimed.text).toBe(201);
  const { verification } = claimed.json as { verification: { name: string; value: string } };
  expect((await call(me, "POST /v1/teams/{team_id}/domains/{domain}/verify", { team_id, domain })).status).toBe(422);
  dns!.setTxt(verification.name, [verification.value]);
  await call(me, "POST /v1/teams/{team_id}/domains/{domain}/verify", { team_id, domain });
  await call(me, "GET /v1/teams/{team_id}/domains", { team_id });
  await call(me, "DELETE /v1/teams/{team_id}/domains/{domain}", { team_id, domain });
  const invitedEmail = randomEmail("contract-invited");
  const invited = await call(
    me,
    "POST /v1/teams/{team_id}/invitations",
    { team_id },
    { body: { email: invitedEmail, role: "member" } },
  );
  expect(invited.status, invited.text).toBe(201);
  await call(me, "GET /v1/teams/{team_id}/invitations", { team_id });
  const revoked = await call(
    me,
    "POST /v1/teams/{team_id}/invitations",
    { team_id },
    { body: { email: randomEmail("contract-revoked"), role: "viewer" } },
  );
  await call(me, "DELETE /v1/teams/{team_id}/invitations/{invitation_id}", {
    team_id,
    invitation_id: (revoked.json as { id: string }).id,
  });
  await expect.poll(() => invitationLink(invitedEmail)).not.toBeNull();
  const link = invitationLink(invitedEmail)!;
  const member = await signIn(baseURL, invitedEmail);
  contexts.push(member);
  const invitationToken = decodeURIComponent(new URL(link).pathname.split("/").pop()!);
  const joined = await call(member, "POST /v1/invitations/accept", {}, { body: { token: invitationToken } });
  expect(joined.status, joined.text).toBe(200);
  const members = await call(me, "GET /v1/teams/{team_id}/members", { team_id });
  const memberId = (members.json as { members: { user_id: string; email: string }[] }).members.find(
    (m) => m.email === invitedEmail,
  )!.user_id;
  await call(
    me,
    "PATCH /v1/teams/{team_id}/members/{user_id}",
    { team_id, user_id: memberId },
    { body: { role: "admin" } },
  );
  const keyMade = await call(
    me,
    "POST /v1/teams/{team_id}/keys",
    { team_id },
    { body: { name: "Contract CMS", scopes: ["read"] } },
  );
  expect(keyMade.status, keyMade.text).toBe(201);
  await call(me, "GET /v1/teams/{team_id}/keys", { team_id });
  await call(me, "DELETE /v1/teams/{team_id}/keys/{key_id}", { team_id, key_id: (keyMade.json as { id: string }).id });
  await call(me, "GET /v1/teams/{team_id}/audit", { team_id });
  await call(me, "GET /v1/teams/{team_id}/audit/export", { team_id });
  await call(me, "GET /v1/teams/{team_id}/usage", { team_id });
  await call(me, "POST /v1/teams/{team_id}/scim", { team_id });
  await call(me, "GET /v1/teams/{team_id}/scim", { team_id });
  await call(me, "DELETE /v1/teams/{team_id}/scim", { team_id });
  await call(me, "PUT /v1/me/workspace", {}, { body: { workspace_id: team_id } });
  await call(me, "PUT /v1/me/workspace", {}, { body: { workspace_id: null } });
  await call(me, "POST /v1/teams/{team_id}/transfer", { team_id }, { body: { user_id: memberId } });
  const myId = ((await call(me, "GET /v1/me")).json as { id: string }).id;
  await call(me, "DELETE /v1/teams/{team_id}/members/{user_id}", { team_id, user_id: myId });
  await call(member, "DELETE /v1/teams/{team_id}", { team_id });

  await call(me, "POST /v1/me/sessions/revoke"); // last: it ends the session the calls above used

  // Coverage, and the figures for the record.
  const seen = [...checker.seen].map((entry) => entry.split(" "));
  const succeeded = new Set(seen.filter(([, , status]) => isSuccess(Number(status))).map(([m, p]) => `${m} ${p}`));
  const pairs = new Set(seen.map(([m, p, status]) => `${m} ${p} ${status}`));
  const figures = {
    operations: operations.length,
    operations_with_success: succeeded.size,
    operation_status_pairs: pairs.size,
    operation_status_type_triples: checker.seen.size,
    responses: checker.checked,
    mismatches: checker.mismatches.length,
  };
  console.log(`contract (built server): ${JSON.stringify(figures)}`);
  mkdirSync("test-results", { recursive: true });
  writeFileSync(
    path.join("test-results", "contract-coverage.json"),
    `${JSON.stringify({ ...figures, pairs: [...pairs].sort() }, null, 2)}\n`,
  );
  expect(checker.mismatches).toEqual([]);
  expect(operations.filter((operation) => !succeeded.has(operation))).toEqual([]);
});

/** The newest invitation link the contract app logged for `email` (no mail server: the log, as sign-in links). */
function invitationLink(email: string): string | null {
  let found: string | null = null;
  for (const line of readFileSync(contractAppLog(), "utf8").split("\n")) {
    if (!line.includes("team invitation link")) continue;
    try {
      const entry = JSON.parse(line) as { email?: string; url?: string };
      if (entry.email?.toLowerCase() === email.toLowerCase() && entry.url) found = entry.url;
    } catch {
      // not a JSON line
    }
  }
  return found;
}

/** The history entry (DELETE /v1/me/transcriptions/{id}'s id) of a transcript, from the caller's list. */
async function transcriptionOf(me: APIRequestContext, transcriptId: string): Promise<string> {
  const list = await call(me, "GET /v1/me/transcriptions");
  const items = (list.json as { transcriptions: { id: string; transcript_id: string | null }[] }).transcriptions;
  const entry = items.find((item) => item.transcript_id === transcriptId) ?? items[0];
  expect(entry, JSON.stringify(list.json)).toBeDefined();
  return entry.id;
}
