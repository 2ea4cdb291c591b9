import { env } from "@/lib/env";
import { scimErrors } from "@/lib/scim/http";

// What the User and Group resources share: their schemas' URNs, `meta`, and list answers with paging (RFC 7644
// §3.4.2: startIndex is 1-based, count is at most MAX_COUNT, and a count of 0 asks only for totalResults).

export const USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User";
export const ENTERPRISE_USER_SCHEMA = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";
export const GROUP_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Group";
export const LIST_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:ListResponse";
export const PATCH_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:PatchOp";

export const MAX_COUNT = 200;

export function resourceUrl(kind: "Users" | "Groups", id: string): string {
  return new URL(`/scim/v2/${kind}/${encodeURIComponent(id)}`, env().APP_URL).toString();
}

export function meta(kind: "User" | "Group", id: string, row: { createdAt: Date; updatedAt: Date }) {
  return {
    resourceType: kind,
    created: row.createdAt.toISOString(),
    lastModified: row.updatedAt.toISOString(),
    location: resourceUrl(kind === "User" ? "Users" : "Groups", id),
  };
}

export interface Page {
  /** 0-based offset. */
  skip: number;
  take: number;
  startIndex: number;
}

function integer(params: URLSearchParams, name: string, fallback: number): number {
  const raw = params.get(name);
  if (raw === null || raw === "") return fallback;
  if (!/^-?\d{1,9}$/.test(raw.trim())) throw scimErrors.invalidValue(`${name} must be an integer.`);
  return Number(raw.trim());
}

export function page(params: URLSearchParams): Page {
  const startIndex = Math.max(1, integer(params, "startIndex", 1));
  const take = Math.min(MAX_COUNT, Math.max(0, integer(params, "count", MAX_COUNT)));
  return { skip: startIndex - 1, take, startIndex };
}

export function listResponse(resources: unknown[], total: number, at: Page) {
  return {
    schemas: [LIST_SCHEMA],
    totalResults: total,
    itemsPerPage: resources.length,
    startIndex: at.startIndex,
    Resources: resources,
  };
}

/** True for the PatchOp schema's message: a PATCH body must carry it (RFC 7644 §3.5.2). */
export function patchOperations(body: unknown): { op: string; path?: string; value?: unknown }[] {
  const { schemas, Operations } = body as { schemas?: unknown; Operations?: unknown };
  if (!Array.isArray(schemas) || !schemas.includes(PATCH_SCHEMA))
    throw scimErrors.invalidSyntax(`A PATCH body's schemas must hold ${PATCH_SCHEMA}.`);
  if (!Array.isArray(Operations) || Operations.length === 0)
    throw scimErrors.invalidSyntax("A PATCH body needs Operations: a list of add, replace and remove operations.");
  return Operations.map((operation: unknown) => {
    if (typeof operation !== "object" || operation === null)
      throw scimErrors.invalidSyntax("Each of Operations must be an object.");
    const { op, path, value } = operation as { op?: unknown; path?: unknown; value?: unknown };
    if (typeof op !== "string" || !["add", "replace", "remove"].includes(op.toLowerCase()))
      throw scimErrors.invalidSyntax('Each operation\'s op must be "add", "replace" or "remove".');
    if (path !== undefined && typeof path !== "string")
      throw scimErrors.invalidSyntax("An operation's path is a string.");
    return { op: op.toLowerCase(), ...(path !== undefined ? { path } : {}), ...(value !== undefined ? { value } : {}) };
  });
}
