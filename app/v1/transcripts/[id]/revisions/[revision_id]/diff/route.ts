import { withApi } from "@/lib/rest/with-api";
import { revisionDiffEndpoint } from "@/lib/edits/endpoints";
import { revisionDiff } from "@/lib/edits/revisions";

export const GET = withApi(revisionDiffEndpoint, ({ principal, params }) =>
  revisionDiff(principal.userId, params.id, params.revision_id),
);
