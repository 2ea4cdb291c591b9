import { withApi } from "@/lib/rest/with-api";
import { teamAuditEndpoint } from "@/lib/teams/endpoints";
import { listAudit } from "@/lib/teams/audit";

export const GET = withApi(teamAuditEndpoint, ({ principal, params, query }) =>
  listAudit(params.team_id, principal.personId, query),
);
