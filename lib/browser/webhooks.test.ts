import { describe, expect, it } from "vitest";
import { deliveryState } from "@/lib/browser/webhooks";

describe("deliveryState", () => {
  it("names each state with what the receiver answered", () => {
    expect(deliveryState({ status: "delivered", attempts: 1, last_status_code: 204, last_error: null })).toBe(
      "Delivered (204)",
    );
    expect(deliveryState({ status: "pending", attempts: 0, last_status_code: null, last_error: null })).toBe("Waiting");
    expect(deliveryState({ status: "pending", attempts: 2, last_status_code: 500, last_error: "Answered 500" })).toBe(
      "Retrying (2 attempts, last 500)",
    );
    expect(deliveryState({ status: "pending", attempts: 1, last_status_code: null, last_error: "timeout" })).toBe(
      "Retrying (1 attempt, last no answer)",
    );
    expect(deliveryState({ status: "failed", attempts: 1, last_status_code: 410, last_error: "Answered 410" })).toBe(
      "Failed: Answered 410",
    );
  });
});
