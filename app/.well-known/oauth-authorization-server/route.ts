import { withApi } from "@/lib/rest/with-api";
import { metadataEndpoint } from "@/lib/oauth/endpoints";
import { authorizationServerMetadata } from "@/lib/oauth/metadata";

export const GET = withApi(metadataEndpoint, async () => authorizationServerMetadata());
