import { Notice } from "@/components/ui/notice";
import type { Workspace } from "@/lib/membership/workspace";

/** Said in place of what the person's role in this team does not allow (the API refuses it too). */
export function RoleNotice({ workspace, needed, what }: { workspace: Workspace; needed: string; what: string }) {
  return (
    <Notice tone="warning" data-testid="role-notice">
      {what} needs the {needed} role in {workspace.name ?? "this team"}; you are{" "}
      {workspace.role === "admin" ? "an" : "a"} {workspace.role}. Ask an admin or the owner, or switch to your own
      account above.
    </Notice>
  );
}
