import { withApi } from "@/lib/rest/with-api";
import { createBatchEndpoint } from "@/lib/batches/endpoints";
import { createBatch } from "@/lib/batches/create-batch";

export const POST = withApi(createBatchEndpoint, ({ principal, body }) => createBatch(principal.userId, body));
