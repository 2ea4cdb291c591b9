import { scimJson, scimRoute } from "@/lib/scim/http";
import { serviceProviderConfig } from "@/lib/scim/discovery";

export const GET = scimRoute(async () => scimJson(serviceProviderConfig()));
