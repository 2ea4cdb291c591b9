import { withApi } from "@/lib/rest/with-api";
import { searchLibraryEndpoint } from "@/lib/search/endpoints";
import { searchLibrary } from "@/lib/search/search-moments";

export const GET = withApi(searchLibraryEndpoint, ({ principal, query }) => searchLibrary(principal.userId, query));
