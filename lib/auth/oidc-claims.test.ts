import { describe, expect, it } from "vitest";
import {
  claimValues,
  emailDomainAllowed,
  idTokenClaims,
  mergedClaims,
  oidcRefusal,
  teamRolesFromClaims,
} from "@/lib/auth/oidc-claims";
import { parseTeamRoleRules, type TeamRoleRule } from "@/lib/auth/oidc-settings";

function rules(text: string): TeamRoleRule[] {
  const parsed = parseTeamRoleRules(text);
  if ("error" in parsed) throw new Error(parsed.error);
  return parsed.rules;
}

describe("oidcRefusal", () => {
  it("lets a verified e-mail in, and refuses a missing, unverified or malformed one", () => {
    expect(oidcRefusal({ email: "Ana@Example.com", email_verified: true }, undefined)).toBeNull();
    expect(oidcRefusal({ email: "ana@example.com", email_verified: "true" }, [])).toBeNull();
    expect(oidcRefusal({ email_verified: true }, undefined)).toBe("email_missing");
    expect(oidcRefusal({ email: "not-an-address", email_verified: true }, undefined)).toBe("email_missing");
    expect(oidcRefusal({ email: ["a@example.com"], email_verified: true }, undefined)).toBe("email_missing");
    expect(oidcRefusal({ email: "ana@example.com" }, undefined)).toBe("email_unverified");
    expect(oidcRefusal({ email: "ana@example.com", email_verified: false }, undefined)).toBe("email_unverified");
    expect(oidcRefusal({ email: "ana@example.com", email_verified: "yes" }, undefined)).toBe("email_unverified");
  });

  it("limits sign-in to the allowed domains, exactly (no subdomain, no look-alike)", () => {
    const domains = ["example.com", "example.org"];
    expect(oidcRefusal({ email: "ana@EXAMPLE.org", email_verified: true }, domains)).toBeNull();
    for (const email of ["ana@evil.com", "ana@sub.example.com", "ana@example.com.evil.io", "example.com@evil.io"])
      expect(oidcRefusal({ email, email_verified: true }, domains), email).toBe("email_domain");
    expect(emailDomainAllowed("x@y.z", undefined)).toBe(true);
    expect(emailDomainAllowed('"a@example.com"@evil.io', ["example.com"])).toBe(false);
  });
});

describe("claimValues", () => {
  it("reads a string as one value and a list's strings, and nothing else", () => {
    expect(claimValues({ groups: "staff" }, "groups")).toEqual(["staff"]);
    expect(claimValues({ groups: ["a", 3, null, "b", { x: 1 }] }, "groups")).toEqual(["a", "b"]);
    expect(claimValues({ groups: { a: true } }, "groups")).toEqual([]);
    expect(claimValues({}, "groups")).toEqual([]);
  });

  it("follows a dotted path when no claim has that name, and prefers a claim named with dots", () => {
    expect(claimValues({ realm_access: { roles: ["admin"] } }, "realm_access.roles")).toEqual(["admin"]);
    expect(claimValues({ "https://x.example/roles": ["r"] }, "https://x.example/roles")).toEqual(["r"]);
    expect(claimValues({ a: ["not", "an", "object"] }, "a.length")).toEqual([]);
    expect(claimValues({}, "__proto__.constructor")).toEqual([]);
  });
});

describe("teamRolesFromClaims", () => {
  const map = rules("acme:admin=verbatim-admins, acme:member=verbatim-users,\nlabs:viewer=/org/labs");

  it("gives each named team the highest matching role, and null where no group matches", () => {
    expect(Object.fromEntries(teamRolesFromClaims(map, ["verbatim-users", "verbatim-admins"]))).toEqual({
      acme: "admin",
      labs: null,
    });
    expect(Object.fromEntries(teamRolesFromClaims(map, ["verbatim-users", "/org/labs"]))).toEqual({
      acme: "member",
      labs: "viewer",
    });
    expect(Object.fromEntries(teamRolesFromClaims(map, []))).toEqual({ acme: null, labs: null });
  });

  it("matches values exactly (no prefix, no case folding)", () => {
    expect(teamRolesFromClaims(map, ["verbatim-admins-old", "Verbatim-Admins"]).get("acme")).toBeNull();
  });
});

describe("parseTeamRoleRules", () => {
  it("reads team:role=value, the value being everything after the first =", () => {
    expect(rules("acme:owner=cn=owners")).toEqual([{ team: "acme", role: "owner", value: "cn=owners" }]);
    expect(rules(" , ")).toEqual([]);
  });

  it("names the problem of a bad entry", () => {
    expect(parseTeamRoleRules("acme=admins")).toEqual({ error: expect.stringMatching(/team:role=claim-value/) });
    expect(parseTeamRoleRules("acme:boss=admins")).toEqual({ error: expect.stringMatching(/"boss" is not a role/) });
    expect(parseTeamRoleRules("Acme_Inc:admin=a")).toEqual({ error: expect.stringMatching(/not a team slug/) });
  });
});

describe("mergedClaims", () => {
  const token = (claims: object) => `e30.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.sig`;

  it("lays UserInfo's claims over the ID token's", () => {
    expect(mergedClaims({ email: "a@x.io", groups: ["u"] }, token({ sub: "1", groups: ["i"], acr: "1" }))).toEqual({
      sub: "1",
      acr: "1",
      email: "a@x.io",
      groups: ["u"],
    });
  });

  it("reads nothing from a token that is not a JWT's shape", () => {
    expect(idTokenClaims("nope")).toEqual({});
    expect(idTokenClaims("a.!!!.c")).toEqual({});
    expect(idTokenClaims(`a.${Buffer.from("[1]").toString("base64url")}.c`)).toEqual({});
    expect(idTokenClaims(undefined)).toEqual({});
  });
});

describe("OIDC_ALLOWED_GROUPS", () => {
  const gate = { groups: ["verbatim-users", "/org/research"], claim: "groups" };
  const person = { email: "ana@example.com", email_verified: true };

  it("lets in only a person whose roles claim names an allowed group", () => {
    expect(oidcRefusal({ ...person, groups: ["other", "verbatim-users"] }, undefined, gate)).toBeNull();
    expect(oidcRefusal({ ...person, groups: "/org/research" }, undefined, gate)).toBeNull();
    expect(oidcRefusal({ ...person, groups: ["other"] }, undefined, gate)).toBe("group");
    expect(oidcRefusal({ ...person, groups: ["Verbatim-Users"] }, undefined, gate)).toBe("group");
    expect(oidcRefusal(person, undefined, gate)).toBe("group");
  });

  it("reads the configured claim, dotted paths included, and lets everyone in when unset", () => {
    const keycloak = { groups: ["admins"], claim: "realm_access.roles" };
    expect(oidcRefusal({ ...person, realm_access: { roles: ["admins"] } }, undefined, keycloak)).toBeNull();
    expect(oidcRefusal({ ...person, groups: ["admins"] }, undefined, keycloak)).toBe("group");
    expect(oidcRefusal(person, undefined, { groups: [], claim: "groups" })).toBeNull();
    expect(oidcRefusal(person, undefined, { groups: undefined, claim: "groups" })).toBeNull();
  });
});
