import { describe, expect, it } from "vitest";
import { deliveryCounts, destinationProblem, destinationTarget } from "@/lib/browser/destinations";

const at = (iso: string) => iso.slice(11, 16);

describe("an export destination on the Exports page", () => {
  it("names where it writes", () => {
    expect(destinationTarget({ kind: "folder", path: "vault/Transcripts", database_id: null })).toBe(
      "Folder vault/Transcripts",
    );
    expect(destinationTarget({ kind: "notion", path: null, database_id: "0f3c7a1e-98b2-4c55-9d1a-2b7e6f0c4d11" })).toBe(
      "Notion database 0f3c7a1e-98b2-4c55-9d1a-2b7e6f0c4d11",
    );
  });

  it("counts its transcripts by state, leaving the empty ones out", () => {
    expect(deliveryCounts({ deliveries: { pending: 0, delivered: 0, kept: 0, failed: 0 } })).toBe(
      "Nothing delivered yet",
    );
    expect(deliveryCounts({ deliveries: { pending: 1, delivered: 3, kept: 0, failed: 2 } })).toBe(
      "3 delivered, 1 waiting, 2 given up",
    );
    expect(deliveryCounts({ deliveries: { pending: 0, delivered: 0, kept: 1, failed: 0 } })).toBe(
      "1 kept as you edited them",
    );
  });

  it("says why it is not delivering, and when it is tried again", () => {
    const ok = { state: "ok", disabled_reason: null, last_error: null, failing_since: null, next_attempt_at: null };
    expect(destinationProblem({ ...ok, state: "ok" }, at)).toBeNull();
    expect(
      destinationProblem(
        {
          ...ok,
          state: "failing",
          last_error: "Notion answered 401: the token is not valid",
          failing_since: "2026-11-30T09:15:00.000Z",
          next_attempt_at: "2026-11-30T09:45:00.000Z",
        },
        at,
      ),
    ).toBe("Failing since 09:15: Notion answered 401: the token is not valid. Tried again at 09:45.");
    expect(destinationProblem({ ...ok, state: "failing" }, at)).toBe("Failing: the last attempt failed.");
    expect(
      destinationProblem({ ...ok, state: "failing", last_error: "Notion did not answer within the deadline." }, at),
    ).toBe("Failing: Notion did not answer within the deadline.");
    expect(destinationProblem({ ...ok, state: "disabled", disabled_reason: "Its owner left the team." }, at)).toBe(
      "Stopped: Its owner left the team.",
    );
  });
});
