import { withApi } from "@/lib/rest/with-api";
import { listRevisionsEndpoint } from "@/lib/edits/endpoints";
import { listRevisions } from "@/lib/edits/revisions";

export const GET = withApi(listRevisionsEndpoint, ({ principal, params }) =>
  listRevisions(principal.userId, params.id),
);
