import { env } from "@/lib/env";
import { ENTERPRISE_USER_SCHEMA, GROUP_SCHEMA, LIST_SCHEMA, MAX_COUNT, USER_SCHEMA } from "@/lib/scim/resources";

// What an identity provider reads to learn this server (RFC 7644 §4, RFC 7643 §5–7).

const base = () => new URL("/scim/v2", env().APP_URL).toString();

export function serviceProviderConfig() {
  return {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"],
    documentationUri: new URL("/docs", env().APP_URL).toString(),
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_COUNT },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: "oauthbearertoken",
        name: "Bearer token",
        description: "The team's SCIM token, made by its owner with POST /v1/teams/{team_id}/scim.",
        primary: true,
      },
    ],
    meta: { resourceType: "ServiceProviderConfig", location: `${base()}/ServiceProviderConfig` },
  };
}

const resourceTypes = () => [
  {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:ResourceType"],
    id: "User",
    name: "User",
    endpoint: "/Users",
    description: "A member of the team",
    schema: USER_SCHEMA,
    schemaExtensions: [{ schema: ENTERPRISE_USER_SCHEMA, required: false }],
    meta: { resourceType: "ResourceType", location: `${base()}/ResourceTypes/User` },
  },
  {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:ResourceType"],
    id: "Group",
    name: "Group",
    endpoint: "/Groups",
    description: "A group of the identity provider; OIDC_TEAM_ROLES maps it to a role in the team",
    schema: GROUP_SCHEMA,
    meta: { resourceType: "ResourceType", location: `${base()}/ResourceTypes/Group` },
  },
];

function attribute(
  name: string,
  type: "string" | "boolean" | "complex" | "reference",
  extra: Record<string, unknown> = {},
) {
  return {
    name,
    type,
    multiValued: false,
    required: false,
    caseExact: false,
    mutability: "readWrite",
    returned: "default",
    uniqueness: "none",
    ...extra,
  };
}

const schemas = () => [
  {
    id: USER_SCHEMA,
    name: "User",
    description: "User Account",
    attributes: [
      attribute("userName", "string", { required: true, uniqueness: "server" }),
      attribute("name", "complex", {
        subAttributes: ["formatted", "familyName", "givenName"].map((n) => attribute(n, "string")),
      }),
      attribute("displayName", "string"),
      attribute("active", "boolean"),
      attribute("emails", "complex", {
        multiValued: true,
        subAttributes: [attribute("value", "string"), attribute("type", "string"), attribute("primary", "boolean")],
      }),
      attribute("groups", "complex", { multiValued: true, mutability: "readOnly" }),
    ],
    meta: { resourceType: "Schema", location: `${base()}/Schemas/${USER_SCHEMA}` },
  },
  {
    id: GROUP_SCHEMA,
    name: "Group",
    description: "Group",
    attributes: [
      attribute("displayName", "string", { required: true, uniqueness: "server" }),
      attribute("members", "complex", {
        multiValued: true,
        subAttributes: [attribute("value", "string", { mutability: "immutable" }), attribute("display", "string")],
      }),
    ],
    meta: { resourceType: "Schema", location: `${base()}/Schemas/${GROUP_SCHEMA}` },
  },
];

function list(resources: unknown[]) {
  return {
    schemas: [LIST_SCHEMA],
    totalResults: resources.length,
    itemsPerPage: resources.length,
    startIndex: 1,
    Resources: resources,
  };
}

export const resourceTypeList = () => list(resourceTypes());
export const schemaList = () => list(schemas());
