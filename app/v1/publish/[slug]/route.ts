import { withApi } from "@/lib/rest/with-api";
import { unpublishEndpoint } from "@/lib/publishing/endpoints";
import { unpublishTranscript } from "@/lib/publishing/publish";

export const DELETE = withApi(unpublishEndpoint, ({ principal, params }) =>
  unpublishTranscript(principal.userId, params.slug),
);
