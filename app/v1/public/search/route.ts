import { withApi } from "@/lib/http/with-api";
import { searchPublicEndpoint } from "@/lib/search/endpoints";
import { searchPublic } from "@/lib/search/search-public";

export const GET = withApi(searchPublicEndpoint, ({ query }) => searchPublic(query));
