import { withApi } from "@/lib/rest/with-api";
import { getImportEndpoint } from "@/lib/imports/endpoints";
import { getImport } from "@/lib/imports/get-import";

export const GET = withApi(getImportEndpoint, ({ principal, params }) => getImport(principal.userId, params.batch_id));
