import { describe, expect, it } from "vitest";
import { ApiRequestError, errorCode, errorMessage } from "@/lib/browser/api";
import { ssoSettingsFor, verifyProblem } from "@/lib/browser/team-sso";

describe("ssoSettingsFor", () => {
  it("shows nothing to a viewer or a member, the domains to an admin, everything to the owner", () => {
    expect(ssoSettingsFor("viewer", true)).toEqual({ domains: false, requireSso: false, scim: false });
    expect(ssoSettingsFor("member", true)).toEqual({ domains: false, requireSso: false, scim: false });
    expect(ssoSettingsFor("admin", true)).toEqual({ domains: true, requireSso: false, scim: false });
    expect(ssoSettingsFor("owner", true)).toEqual({ domains: true, requireSso: true, scim: true });
  });

  it("offers requiring the provider only where the server has one", () => {
    expect(ssoSettingsFor("owner", false)).toEqual({ domains: true, requireSso: false, scim: true });
  });
});

describe("verifyProblem", () => {
  // The bodies as the API sends them (lib/http/errors.ts): a 422 as one validation item, the others flat.
  const fromBody = (status: number, body: unknown) =>
    new ApiRequestError(status, errorMessage(status, body), errorCode(body));

  it("says the record is missing, with the API's detail and what to do", () => {
    const problem = verifyProblem(
      fromBody(422, {
        detail: [{ type: "domain_unverified", loc: ["body"], msg: 'No TXT record "verbatim-x" at _verbatim.a.org.' }],
      }),
    );
    expect(problem.title).toBe("The TXT record was not found yet");
    expect(problem.detail).toMatch(/^No TXT record "verbatim-x" at _verbatim\.a\.org\. DNS changes can take/);
  });

  it("tells another team's domain from a DNS failure or timeout", () => {
    expect(verifyProblem(fromBody(409, { code: "domain_taken", detail: "Another team has verified a.org." }))).toEqual({
      title: "Another team has verified this domain",
      detail: "Another team has verified a.org.",
    });
    expect(
      verifyProblem(fromBody(502, { code: "upstream_dns_failed", detail: "The DNS servers could not look up a.org." })),
    ).toEqual({
      title: "The DNS lookup failed",
      detail: "The DNS servers could not look up a.org. Try again in a moment.",
    });
    expect(verifyProblem(fromBody(504, { code: "upstream_timeout", detail: "No answer." })).title).toBe(
      "The DNS lookup timed out",
    );
  });

  it("falls back to the message of any other failure", () => {
    expect(verifyProblem(new Error("offline"))).toEqual({
      title: "The domain could not be verified",
      detail: "offline",
    });
  });
});
