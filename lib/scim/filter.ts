import { parse, type Filter } from "scim2-parse-filter";
import { scimErrors } from "@/lib/scim/http";
import { prototypeName } from "@/lib/scim/input";

// The filters an identity provider sends to find a resource before it creates one (`userName eq "…"`, `externalId eq
// "…"`; Entra ID's `displayName eq "…"` for groups): one attribute compared for equality. Any other filter is a 400
// invalidFilter, as RFC 7644 §3.4.2.2 allows for filters a server does not support.

export interface Equality {
  /** The attribute as this server names it (one of `allowed`). */
  attribute: string;
  value: string;
}

const CORE_PREFIX = /^urn:ietf:params:scim:schemas:core:2\.0:(User|Group):/i;

/** `filter` as one `attribute eq "value"` over one of `allowed` (matched without regard to case), or a SCIM 400. */
export function equalityFilter(filter: string, allowed: readonly string[]): Equality {
  let ast: Filter;
  try {
    ast = parse(filter);
  } catch (error) {
    throw scimErrors.invalidFilter(`The filter does not parse: ${(error as Error).message}`);
  }
  const reached = attributePaths(ast).map(prototypeName).find(Boolean);
  if (reached) throw scimErrors.invalidFilter(`The filter names ${reached}, which is no attribute.`);
  if (ast.op.toLowerCase() === "eq" && "attrPath" in ast && "compValue" in ast) {
    const name = ast.attrPath.replace(CORE_PREFIX, "").toLowerCase();
    const attribute = allowed.find((candidate) => candidate.toLowerCase() === name);
    if (attribute && typeof ast.compValue === "string") return { attribute, value: ast.compValue };
  }
  throw scimErrors.invalidFilter(`Only ${allowed.map((a) => `${a} eq "…"`).join(" or ")} filters are supported.`);
}

/** Every attribute path a parsed filter compares (its values are left out: they are never read as names). */
function attributePaths(ast: Filter): string[] {
  const paths: string[] = [];
  const pending: unknown[] = [ast];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (typeof node !== "object" || node === null) continue;
    for (const [key, value] of Object.entries(node)) {
      if (key === "attrPath" && typeof value === "string") paths.push(value);
      else pending.push(value);
    }
  }
  return paths;
}
