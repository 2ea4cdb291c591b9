import { afterEach, describe, expect, it } from "vitest";
import { ScimError } from "@/lib/scim/http";
import { bodyProblem, prototypeName } from "@/lib/scim/input";
import { applyPatch } from "@/lib/scim/patch";

// scim-patch behind its one door: the paths and keys that walk it onto a prototype (each of these wrote onto
// Object.prototype or Array.prototype through the library alone) are refused before it runs.

const PROTOTYPES = [Object.prototype, Array.prototype, Function.prototype];
const baseline = PROTOTYPES.map((proto) => Reflect.ownKeys(proto));

afterEach(() => {
  PROTOTYPES.forEach((proto, i) => {
    for (const key of Reflect.ownKeys(proto))
      if (!baseline[i]!.includes(key)) delete (proto as Record<PropertyKey, unknown>)[key];
  });
});

const resource = () => ({ schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"], emails: [{ value: "a@b.c" }] });

function refusal(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (error instanceof ScimError) return { status: error.status, scimType: error.scimType };
    throw error;
  }
  return null;
}

describe("applyPatch", () => {
  it("refuses a path that names a prototype, however it is spelled or split, before scim-patch walks it", () => {
    for (const path of [
      "__proto__.polluted",
      "constructor.prototype.polluted",
      "emails.constructor.prototype.polluted",
      "__PROTO__.polluted",
      "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:__proto__.polluted",
      // The library splits this at both dots, the quotes notwithstanding: `__proto__` is walked.
      'a"b.__proto__.polluted"c',
      'emails[constructor eq "x"].polluted',
    ]) {
      for (const op of ["add", "replace"])
        expect(
          refusal(() => applyPatch(resource(), [{ op, path, value: "yes" }])),
          path,
        ).toEqual({
          status: 400,
          scimType: "invalidPath",
        });
    }
    expect(Reflect.ownKeys(Object.prototype)).toEqual(baseline[0]);
    expect(Reflect.ownKeys(Array.prototype)).toEqual(baseline[1]);
  });

  it("refuses a value whose keys name a prototype, at any depth", () => {
    for (const value of [
      JSON.parse('{"__proto__": {"polluted": "yes"}}'),
      { "__proto__.polluted": "yes" },
      { name: { "constructor.prototype.polluted": "yes" } },
      [{ value: "x", Prototype: "yes" }],
    ])
      expect(
        refusal(() => applyPatch(resource(), [{ op: "add", value }])),
        JSON.stringify(value),
      ).toEqual({
        status: 400,
        scimType: "invalidValue",
      });
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it("applies what identity providers send", () => {
    expect(
      applyPatch(resource(), [
        { op: "add", path: 'emails[value eq "a@b.c"].type', value: "work" },
        { op: "replace", path: "name.givenName", value: "Constructor Prototype" },
        { op: "add", value: { "name.familyName": "Proto" } },
      ]),
    ).toMatchObject({ emails: [{ value: "a@b.c", type: "work" }], name: { givenName: "Constructor Prototype" } });
  });
});

describe("the names SCIM reads", () => {
  it("finds a prototype's name among a path's or a key's attribute names, not inside a longer name", () => {
    expect(prototypeName('emails[type eq "work"].value')).toBeNull();
    expect(prototypeName("urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value")).toBeNull();
    expect(prototypeName("my-prototype_field")).toBeNull();
    expect(prototypeName("$ref")).toBeNull();
    expect(prototypeName("name.Constructor")).toBe("Constructor");
    expect(prototypeName("members,prototype")).toBe("prototype");
  });

  it("says what is wrong with a body: a key that names a prototype, or text PostgreSQL cannot hold", () => {
    expect(bodyProblem({ userName: "a@b.c", name: { givenName: "Ann" }, emails: [{ value: "a@b.c" }] })).toBeNull();
    expect(bodyProblem(JSON.parse('{"name": {"__proto__": {}}}'))).toMatch(/^"name\.__proto__" names __proto__/);
    expect(bodyProblem({ emails: [{ value: "a\u0000" }] })).toMatch(
      /^"emails\[0\]\.value": String should not contain NUL/,
    );
    expect(bodyProblem({ ["a\u0000"]: 1 })).toMatch(/NUL/);
    expect(bodyProblem({ title: "\ud800" })).toMatch(/unpaired surrogate/);
  });
});
