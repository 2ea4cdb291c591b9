import { describe, expect, it } from "vitest";
import { createTranscriptEndpoint, listLanguagesEndpoint } from "@/lib/transcripts/endpoints";
import { upstreamErrorStatuses } from "@/lib/captions/upstream-errors";
import { SourceError } from "@/lib/captions/types";
import { OutboundError } from "@/lib/http/outbound";
import { asApiError } from "@/lib/captions/upstream-errors";
import type { ApiError } from "@/lib/http/errors";

describe("the statuses a platform's failure can answer", () => {
  it("are declared by every endpoint that asks a platform (GET /v1/languages: 404 video_unavailable)", () => {
    const statuses = Object.keys(upstreamErrorStatuses()).map(Number);
    expect(statuses).toEqual(expect.arrayContaining([403, 404, 409, 422, 502, 504]));
    expect(upstreamErrorStatuses()[404]).toContain("video_unavailable");
    for (const endpoint of [listLanguagesEndpoint, createTranscriptEndpoint])
      for (const status of statuses)
        expect(endpoint.errors, `${endpoint.path} ${status}`).toHaveProperty(String(status));
  });

  it("match what asApiError answers", () => {
    const statuses = upstreamErrorStatuses();
    const sent = [
      asApiError(new SourceError("video_unavailable", "gone")),
      asApiError(new SourceError("live_not_finished", "live")),
      asApiError(new OutboundError("upstream_timeout", "slow")),
      asApiError(new OutboundError("address_not_allowed", "no")),
    ] as ApiError[];
    for (const error of sent) expect(statuses[error.status], error.code).toContain(error.code);
  });
});
