import { withApi } from "@/lib/rest/with-api";
import { chooseWorkspaceEndpoint } from "@/lib/auth/endpoints";
import { chooseWorkspace } from "@/lib/auth/choose-workspace";

export const PUT = withApi(chooseWorkspaceEndpoint, ({ principal, request, body }) =>
  chooseWorkspace(principal, request, body.workspace_id),
);
