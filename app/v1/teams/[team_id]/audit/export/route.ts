import { withApi } from "@/lib/rest/with-api";
import { teamAuditExportEndpoint } from "@/lib/teams/endpoints";
import { exportAudit } from "@/lib/teams/audit-export";

export const GET = withApi(teamAuditExportEndpoint, ({ principal, params, query }) =>
  exportAudit(params.team_id, principal.personId, query),
);
