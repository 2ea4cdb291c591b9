import { withApi } from "@/lib/rest/with-api";
import { retryImportItemEndpoint } from "@/lib/imports/endpoints";
import { retryImportItem } from "@/lib/imports/retry-import-item";

export const POST = withApi(retryImportItemEndpoint, ({ principal, params, body }) =>
  retryImportItem(principal.userId, params.batch_id, body.guid),
);
