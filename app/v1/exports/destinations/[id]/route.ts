import { deleteDestinationEndpoint } from "@/lib/exports/endpoints";
import { deleteDestination } from "@/lib/exports/destinations/delete-destination";
import { withApi } from "@/lib/rest/with-api";

export const DELETE = withApi(deleteDestinationEndpoint, ({ principal, params }) =>
  deleteDestination(principal, params.id),
);
