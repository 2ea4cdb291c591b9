import { withApi } from "@/lib/rest/with-api";
import { downloadBatchEndpoint } from "@/lib/batches/endpoints";
import { downloadBatch } from "@/lib/batches/download-batch";

export const GET = withApi(downloadBatchEndpoint, ({ principal, params, query }) =>
  downloadBatch(principal.userId, params.batch_id, query.formats),
);
