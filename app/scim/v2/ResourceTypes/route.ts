import { scimJson, scimRoute } from "@/lib/scim/http";
import { resourceTypeList } from "@/lib/scim/discovery";

export const GET = scimRoute(async () => scimJson(resourceTypeList()));
