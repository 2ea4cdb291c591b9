import { describe, expect, it } from "vitest";
import { equalityFilter } from "@/lib/scim/filter";
import { ScimError } from "@/lib/scim/http";
import { scimBoolean } from "@/lib/scim/users";

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof ScimError ? { status: error.status, scimType: error.scimType } : error;
  }
  return null;
};

describe("the filters an identity provider sends", () => {
  it("reads one attribute compared for equality, whatever the case of the attribute and the operator", () => {
    expect(equalityFilter('userName eq "bjensen@example.com"', ["userName", "externalId"])).toEqual({
      attribute: "userName",
      value: "bjensen@example.com",
    });
    expect(equalityFilter('USERNAME EQ "a b"', ["userName"])).toEqual({ attribute: "userName", value: "a b" });
    expect(
      equalityFilter('urn:ietf:params:scim:schemas:core:2.0:User:externalId eq "00u1"', ["userName", "externalId"]),
    ).toEqual({ attribute: "externalId", value: "00u1" });
  });

  it("refuses every other filter with invalidFilter", () => {
    for (const filter of [
      'userName co "a"',
      'userName ne "a"',
      "userName pr",
      'displayName eq "a"',
      'userName eq "a" and externalId eq "b"',
      'emails[type eq "work"]',
      "userName eq 1",
      'userName eq "unterminated',
    ])
      expect(
        refusal(() => equalityFilter(filter, ["userName", "externalId"])),
        filter,
      ).toEqual({ status: 400, scimType: "invalidFilter" });
  });
});

describe("booleans as Entra ID sends them", () => {
  it('reads "True" and "False" as booleans, and refuses anything else', () => {
    expect(scimBoolean("False", "active")).toBe(false);
    expect(scimBoolean("True", "active")).toBe(true);
    expect(scimBoolean(false, "active")).toBe(false);
    expect(scimBoolean(" false ", "active")).toBe(false);
    for (const value of ["no", 0, null, "yes"])
      expect(
        refusal(() => scimBoolean(value, "active")),
        String(value),
      ).toEqual({ status: 400, scimType: "invalidValue" });
  });
});
