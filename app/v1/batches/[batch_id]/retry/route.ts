import { withApi } from "@/lib/rest/with-api";
import { retryBatchEndpoint } from "@/lib/batches/endpoints";
import { retryBatch } from "@/lib/batches/retry-batch";

export const POST = withApi(retryBatchEndpoint, ({ principal, params }) =>
  retryBatch(principal.userId, params.batch_id),
);
