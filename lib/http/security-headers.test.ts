import { describe, expect, it } from "vitest";
import { cachedPageHeaders, DOCS_POLICY, newNonce, pageSecurityHeaders } from "@/lib/http/security-headers";

const plain = { appUrl: "http://127.0.0.1:3000", uploadOrigins: [], formTargets: [] };

describe("page security headers", () => {
  it("a nonce-based script policy without eval, the players' frames, and frame-ancestors 'none'", () => {
    const nonce = newNonce();
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(newNonce()).not.toBe(nonce);
    const headers = pageSecurityHeaders(nonce, "/dashboard", plain);
    const csp = headers["Content-Security-Policy"];
    expect(csp).toContain(`script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`);
    expect(csp).not.toMatch(/unsafe-eval/);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain(
      "frame-src https://www.youtube-nocookie.com https://www.youtube.com https://player.vimeo.com",
    );
    // A podcast episode's audio plays from its host: any web address, for media only.
    expect(csp).toContain("media-src 'self' blob: https: http:;");
    expect(csp).toContain("img-src 'self' data: blob: https://i.ytimg.com;");
    expect(csp).toContain("connect-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("upgrade-insecure-requests");
    expect(headers["Strict-Transport-Security"]).toBeUndefined();
  });

  it("HSTS and upgrade-insecure-requests only when APP_URL is https; upload and sign-in origins when configured", () => {
    const headers = pageSecurityHeaders("n", "/", {
      appUrl: "https://verbatim.example",
      uploadOrigins: ["https://s3.eu-west-1.amazonaws.com", "https://*.s3.eu-west-1.amazonaws.com"],
      formTargets: ["https://github.com"],
    });
    expect(headers["Strict-Transport-Security"]).toBe("max-age=31536000");
    expect(headers["Content-Security-Policy"]).toContain("upgrade-insecure-requests");
    expect(headers["Content-Security-Policy"]).toContain(
      "connect-src 'self' https://s3.eu-west-1.amazonaws.com https://*.s3.eu-west-1.amazonaws.com",
    );
    expect(headers["Content-Security-Policy"]).toContain(
      "media-src 'self' blob: https://s3.eu-west-1.amazonaws.com https://*.s3.eu-west-1.amazonaws.com https:;",
    );
    expect(headers["Content-Security-Policy"]).toContain("form-action 'self' https://github.com");
  });

  it("cached public pages: the same policy without a nonce, inline scripts allowed, still unframeable and without eval", () => {
    const headers = Object.fromEntries(cachedPageHeaders().map(({ key, value }) => [key, value]));
    const csp = headers["Content-Security-Policy"];
    expect(headers["Strict-Transport-Security"]).toBe("max-age=31536000");
    expect(csp).toContain("script-src 'self' 'unsafe-inline';");
    expect(csp).not.toContain("nonce-");
    expect(csp).not.toContain("strict-dynamic");
    expect(csp).not.toMatch(/unsafe-eval/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'self'");
    expect(csp).toContain(
      "frame-src https://www.youtube-nocookie.com https://www.youtube.com https://player.vimeo.com",
    );
    expect(csp).toContain("form-action 'self';");
    expect(csp).toContain("media-src 'self' blob: https: http:;");
    expect(csp).not.toContain("upgrade-insecure-requests");
  });

  it("Swagger UI's policy: scripts from this origin only", () => {
    expect(DOCS_POLICY).toContain("script-src 'self';");
    expect(DOCS_POLICY).not.toMatch(/unsafe-eval/);
    expect(DOCS_POLICY).toContain("frame-ancestors 'none'");
  });
});
