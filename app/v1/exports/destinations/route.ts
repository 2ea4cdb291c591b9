import { createDestinationEndpoint, listDestinationsEndpoint } from "@/lib/exports/endpoints";
import { createDestination } from "@/lib/exports/destinations/create-destination";
import { listDestinations } from "@/lib/exports/destinations/list-destinations";
import { withApi } from "@/lib/rest/with-api";

export const GET = withApi(listDestinationsEndpoint, ({ principal }) => listDestinations(principal.userId));
export const POST = withApi(createDestinationEndpoint, ({ principal, body }) => createDestination(principal, body));
