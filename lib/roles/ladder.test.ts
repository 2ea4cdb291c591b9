import { describe, expect, it } from "vitest";
import { TEAM_ACTIONS, TEAM_ROLES, atLeast, grantableRoles, mayGrant } from "@/lib/roles/ladder";

describe("the role ladder", () => {
  it("orders owner > admin > member > viewer", () => {
    for (const [i, role] of TEAM_ROLES.entries())
      for (const [j, other] of TEAM_ROLES.entries()) expect(atLeast(role, other)).toBe(i <= j);
  });

  it("lets those who manage members give any role but owner, and owners owner too", () => {
    expect(grantableRoles("owner")).toEqual(["owner", "admin", "member", "viewer"]);
    expect(grantableRoles("admin")).toEqual(["admin", "member", "viewer"]);
    expect(grantableRoles("member")).toEqual([]);
    expect(grantableRoles("viewer")).toEqual([]);
    expect(mayGrant(null, "viewer")).toBe(false);
    expect(mayGrant("admin", "owner")).toBe(false);
    expect(mayGrant("owner", "owner")).toBe(true);
    expect(mayGrant("admin", "viewer")).toBe(true);
  });

  it("names the least role of each team operation from the ladder", () => {
    expect(TEAM_ACTIONS.read).toBe("viewer");
    expect(TEAM_ACTIONS.manageMembers).toBe("admin");
    expect(TEAM_ACTIONS.deleteTeam).toBe("owner");
    expect(Object.values(TEAM_ACTIONS).every((role) => (TEAM_ROLES as readonly string[]).includes(role))).toBe(true);
  });
});
