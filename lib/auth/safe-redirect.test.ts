import { describe, expect, it } from "vitest";
import { safeCallbackPath, safeCallbackUrl } from "@/lib/auth/safe-redirect";

const APP = "https://app.example";

// [input, where it must lead]. Every form an open redirect has been built from falls back to /dashboard.
const cases: [unknown, string][] = [
  // our own pages
  ["/dashboard", "/dashboard"],
  ["/dashboard/keys?tab=1#top", "/dashboard/keys?tab=1#top"],
  ["/", "/"],
  ["https://app.example/dashboard/history", "/dashboard/history"],
  ["https://APP.example:443/dashboard", "/dashboard"],
  ["/dashboard/../dashboard/keys", "/dashboard/keys"],
  ["/dashboard?next=https://evil.example", "/dashboard?next=https://evil.example"],
  // backslashes, raw and encoded
  ["/\\evil.example", "/dashboard"],
  ["\\\\evil.example", "/dashboard"],
  ["/\\/evil.example", "/dashboard"],
  ["%2F%5Cevil.example", "/dashboard"],
  ["/%5Cevil.example", "/dashboard"],
  ["/%2F/evil.example", "/dashboard"],
  ["/%2f%2fevil.example", "/dashboard"],
  // tabs, newlines, NUL
  ["/\t/evil.example", "/dashboard"],
  ["/\n/evil.example", "/dashboard"],
  ["/\r\n/evil.example", "/dashboard"],
  ["/dashboard\u0000", "/dashboard"],
  // protocol-relative and scheme-relative
  ["//evil.example", "/dashboard"],
  ["///evil.example", "/dashboard"],
  ["https:evil.example", "/dashboard"],
  ["https:/evil.example", "/dashboard"],
  ["http:evil.example/dashboard", "/dashboard"],
  ["/..//evil.example", "/dashboard"],
  ["/././/evil.example", "/dashboard"],
  // other origins
  ["https://evil.example/", "/dashboard"],
  ["http://app.example/dashboard", "/dashboard"],
  ["https://app.example.evil.example/", "/dashboard"],
  ["https://app.example@evil.example/", "/dashboard"],
  ["https://user:pass@app.example/dashboard", "/dashboard"],
  ["https://app.example:8443/dashboard", "/dashboard"],
  // other schemes
  ["javascript:alert(1)", "/dashboard"],
  ["JaVaScRiPt:alert(1)", "/dashboard"],
  [" javascript:alert(1)", "/dashboard"],
  ["data:text/html,<script>alert(1)</script>", "/dashboard"],
  ["mailto:someone@evil.example", "/dashboard"],
  // not a string, empty, relative without a slash, oversized
  [undefined, "/dashboard"],
  [null, "/dashboard"],
  [["/dashboard"], "/dashboard"],
  ["", "/dashboard"],
  ["dashboard", "/dashboard"],
  ["evil.example", "/dashboard"],
  [`/${"a".repeat(3000)}`, "/dashboard"],
];

describe("safeCallbackPath", () => {
  it.each(cases)("%j → %s", (input, expected) => {
    expect(safeCallbackPath(input, undefined, APP)).toBe(expected);
  });

  it("has one fallback, which callers may change", () => {
    expect(safeCallbackPath("//evil.example", "/", APP)).toBe("/");
  });

  it("as an absolute URL, always on APP_URL's origin", () => {
    expect(safeCallbackUrl("/\\evil.example", undefined, APP)).toBe("https://app.example/dashboard");
    expect(safeCallbackUrl("/dashboard/keys", undefined, "http://127.0.0.1:3000")).toBe(
      "http://127.0.0.1:3000/dashboard/keys",
    );
    for (const [input] of cases) expect(new URL(safeCallbackUrl(input, undefined, APP)).origin).toBe(APP);
  });
});
