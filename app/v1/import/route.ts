import { withApi } from "@/lib/rest/with-api";
import { appOutbound } from "@/lib/http/outbound/configured";
import { listImportsEndpoint, startImportEndpoint } from "@/lib/imports/endpoints";
import { listImports } from "@/lib/imports/list-imports";
import { startImport } from "@/lib/imports/start-import";

export const POST = withApi(startImportEndpoint, ({ principal, body }) =>
  startImport(principal.userId, body, { outbound: appOutbound() }),
);
export const GET = withApi(listImportsEndpoint, ({ principal }) => listImports(principal.userId));
