import { withApi } from "@/lib/rest/with-api";
import { listImportItemsEndpoint } from "@/lib/imports/endpoints";
import { listImportItems } from "@/lib/imports/list-import-items";

export const GET = withApi(listImportItemsEndpoint, ({ principal, params, query }) =>
  listImportItems(principal.userId, params.batch_id, query),
);
