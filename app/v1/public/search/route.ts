import { withApi } from "@/lib/rest/with-api";
import { searchPublicEndpoint } from "@/lib/search/endpoints";
import { searchPublic } from "@/lib/search/search-moments";

export const GET = withApi(searchPublicEndpoint, ({ query }) => searchPublic(query));
