import { exportNotesEndpoint } from "@/lib/exports/endpoints";
import { exportNotes } from "@/lib/exports/export-notes";
import { withApi } from "@/lib/rest/with-api";

export const POST = withApi(exportNotesEndpoint, ({ principal, body }) => exportNotes(principal.userId, body));
