import { describe, expect, it } from "vitest";
import { auditSentence, shortDuration } from "@/lib/browser/teams";

describe("auditSentence", () => {
  const actor = { id: "a", label: "ana@example.com" };
  it("says who did what to whom", () => {
    expect(
      auditSentence({
        actor,
        action: "member.role_changed",
        target: "bo@example.com",
        data: { from: "member", to: "admin" },
      }),
    ).toBe("ana@example.com changed the role of bo@example.com (member → admin)");
    expect(auditSentence({ actor, action: "member.invited", target: "bo@example.com", data: { role: "viewer" } })).toBe(
      "ana@example.com invited bo@example.com as viewer",
    );
    expect(auditSentence({ actor, action: "member.joined", target: "ana@example.com", data: { role: "member" } })).toBe(
      "ana@example.com joined as member",
    );
    expect(auditSentence({ actor, action: "member.left", target: "ana@example.com", data: null })).toBe(
      "ana@example.com left the team",
    );
    expect(auditSentence({ actor, action: "team.renamed", target: "news", data: {} })).toBe(
      "ana@example.com renamed the team",
    );
    expect(auditSentence({ actor, action: "key.created", target: "vbt_ab12", data: null })).toBe(
      "ana@example.com key created vbt_ab12",
    );
  });

  it("says why a key or an invitation went with a member's role", () => {
    expect(
      auditSentence({
        actor,
        action: "key.revoked",
        target: "vbt_ab12",
        data: { reason: "member.removed", user_id: "b", member: "bo@example.com" },
      }),
    ).toBe("ana@example.com revoked the team's API key vbt_ab12 (bo@example.com was removed)");
    expect(
      auditSentence({
        actor,
        action: "invitation.revoked",
        target: "cy@example.com",
        data: { invitation_id: "i", reason: "member.role_changed", sender: "bo@example.com" },
      }),
    ).toBe("ana@example.com revoked the invitation of cy@example.com (sent by bo@example.com, who was lowered)");
    expect(auditSentence({ actor, action: "invitation.revoked", target: "cy@example.com", data: {} })).toBe(
      "ana@example.com revoked the invitation of cy@example.com",
    );
  });
});

describe("shortDuration", () => {
  it("writes seconds short", () => {
    expect(shortDuration(45)).toBe("45 s");
    expect(shortDuration(150)).toBe("2 min 30 s");
    expect(shortDuration(3720)).toBe("1 h 2 min");
    expect(shortDuration(7200)).toBe("2 h");
  });
});
