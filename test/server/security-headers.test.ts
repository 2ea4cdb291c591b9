import { afterEach, beforeEach, expect, inject, test } from "vitest";
import { anonymous, type APIRequestContext } from "./http";

// Security headers on every page. (That the pages still work in Chromium with the
// Content-Security-Policy on is e2e/security-headers.spec.ts.)

const BASELINE = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
};

const baseURL = inject("appOrigin");
let request: APIRequestContext;
beforeEach(async () => {
  request = await anonymous(baseURL);
});
afterEach(() => request.dispose());

test("every page carries the security headers; pages a nonce-based policy, a fresh nonce per view", async () => {
  const nonces = new Set<string>();
  for (const path of ["/", "/signin", "/dashboard", "/signin/check-email", "/no-such-page"]) {
    const response = await request.get(path, { maxRedirects: 0, failOnStatusCode: false });
    const headers = response.headers();
    expect(headers, path).toMatchObject(BASELINE);
    const csp = headers["content-security-policy"] ?? "";
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce, `${path}: ${csp}`).toBeTruthy();
    nonces.add(nonce!);
    expect(csp, path).toContain(`script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`);
    expect(csp, path).not.toContain("unsafe-eval");
    expect(csp, path).toContain("frame-ancestors 'none'");
    expect(csp, path).toContain(
      "frame-src https://www.youtube-nocookie.com https://www.youtube.com https://player.vimeo.com",
    );
    expect(csp, path).toContain("media-src 'self' blob:");
    // APP_URL is http here: no HSTS.
    expect(headers["strict-transport-security"], path).toBeUndefined();
    if (response.status() === 200) {
      // Next.js puts this view's nonce on every script it renders; no script goes without it.
      const html = await response.text();
      const scripts = html.match(/<script\b[^>]*>/g) ?? [];
      expect(scripts.length, path).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag, path).toContain(`nonce="${nonce}"`);
    }
  }
  expect(nonces.size).toBe(5);

  const docs = await request.get("/docs");
  expect(docs.headers()).toMatchObject(BASELINE);
  expect(docs.headers()["content-security-policy"]).toMatch(/script-src 'self';/);
  expect(docs.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(docs.headers()["content-security-policy"]).not.toContain("unsafe-eval");

  // The page Auth.js renders itself (sign-out confirmation) cannot be framed either.
  const signout = await request.get("/api/auth/signout");
  expect(signout.headers()["content-type"]).toMatch(/^text\/html/);
  expect(signout.headers()).toMatchObject(BASELINE);
  expect(signout.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");

  const api = await request.get("/v1/plans");
  expect(api.headers()).toMatchObject({
    ...BASELINE,
    "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  });
});
