import { describe, expect, it } from "vitest";
import { auditSentence, shortDuration, usageRows } from "@/lib/browser/teams";

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

describe("usageRows", () => {
  it("lists members, used keys, revoked keys, former members and the rest, adding up to the team's charge", () => {
    const usage = {
      period_start: "2026-11-01T00:00:00.000Z",
      period_end: "2026-12-01T00:00:00.000Z",
      used_seconds: 1000,
      members: [{ user_id: "u1", email: "ana@example.com", used_seconds: 100, requests: 1 }],
      keys: [
        { key_id: "k1", name: "ingest", prefix: "vbt_tk_ab", used_seconds: 400, requests: 2 },
        { key_id: "k2", name: "idle", prefix: "vbt_tk_cd", used_seconds: 0, requests: 0 },
        { key_id: null, name: null, prefix: null, used_seconds: 200, requests: 1 },
      ],
      former_members: { used_seconds: 250, requests: 1 },
      other_seconds: 50,
    };
    const rows = usageRows(usage);
    expect(rows.map((row) => [row.label, row.detail, row.seconds, row.requests])).toEqual([
      ["ana@example.com", null, 100, 1],
      ["Key “ingest”", "vbt_tk_ab", 400, 2],
      ["Revoked keys", null, 200, 1],
      ["Former members", null, 250, 1],
      ["Not attributed", "jobs, schedules, deleted entries", 50, null],
    ]);
    expect(rows.reduce((sum, row) => sum + row.seconds, 0)).toBe(usage.used_seconds);
  });
});
