import { withApi } from "@/lib/rest/with-api";
import { getJobEndpoint } from "@/lib/transcripts/endpoints";
import { getJob } from "@/lib/transcripts/get-job";

export const GET = withApi(getJobEndpoint, ({ principal, params, query }) =>
  getJob(principal.userId, params.job_id, query.format),
);
