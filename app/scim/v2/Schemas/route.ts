import { scimJson, scimRoute } from "@/lib/scim/http";
import { schemaList } from "@/lib/scim/discovery";

export const GET = scimRoute(async () => scimJson(schemaList()));
