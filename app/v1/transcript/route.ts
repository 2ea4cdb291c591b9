import { NextResponse } from "next/server";
import { withApi } from "@/lib/rest/with-api";
import { createTranscriptEndpoint } from "@/lib/transcripts/endpoints";
import { requestTranscript } from "@/lib/transcripts/request-transcript";
import { recordFailedRequest } from "@/lib/transcripts/record-failed-request";
import { transcriptDeps } from "@/lib/transcripts/deps";

export const POST = withApi(createTranscriptEndpoint, async ({ principal, body }) => {
  const outcome = await requestTranscript(principal.userId, body, transcriptDeps()).catch((error: unknown) =>
    recordFailedRequest(principal.userId, body, error),
  );
  if (outcome.kind === "transcript") return outcome.transcript;
  const { jobId, status } = outcome.job;
  return NextResponse.json({ job_id: jobId, status }, { status: 202, headers: { Location: `/v1/jobs/${jobId}` } });
});
