import { withApi } from "@/lib/rest/with-api";
import { getBatchEndpoint } from "@/lib/batches/endpoints";
import { getBatch } from "@/lib/batches/get-batch";

export const GET = withApi(getBatchEndpoint, ({ principal, params }) => getBatch(principal.userId, params.batch_id));
