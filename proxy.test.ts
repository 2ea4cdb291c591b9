import { describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { proxy } from "@/proxy";

describe("the dashboard's sign-in gate", () => {
  it("sends a signed-out visit to APP_URL's /signin, whatever host and scheme the request claims", async () => {
    const request = new NextRequest("https://evil.example/dashboard/keys?x=1", {
      headers: { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" },
    });
    const response = await proxy(request);
    const location = new URL(response.headers.get("location")!);
    expect(location.origin).toBe(new URL(process.env.APP_URL ?? "http://localhost:3000").origin);
    expect(location.pathname).toBe("/signin");
    expect(location.searchParams.get("callbackUrl")).toBe("/dashboard/keys?x=1");
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });
});
