import { scimPatch, type ScimPatchOperation, type ScimResource } from "scim-patch";
import { ScimError, scimErrors } from "@/lib/scim/http";
import { bodyProblem, prototypeName } from "@/lib/scim/input";

// The one door to scim-patch (eslint.config.mjs lets no other file import it): every path and every key of every
// value is read for a name that reaches a prototype before the library walks them, since it creates each missing
// step of a path on whatever object the step before named, Object.prototype included.

/** `resource` with `operations` applied (RFC 7644 §3.5.2), the input unchanged; a SCIM 400 for what cannot be. */
export function applyPatch<T extends Record<string, unknown>>(
  resource: T,
  operations: readonly { op: string; path?: string; value?: unknown }[],
): Record<string, unknown> {
  for (const { path, value } of operations) {
    const name = path === undefined ? null : prototypeName(path);
    if (name) throw scimErrors.invalidPath(`An operation's path names ${name}, which is no attribute.`);
    const problem = bodyProblem(value, "value");
    if (problem) throw scimErrors.invalidValue(problem);
  }
  try {
    return scimPatch(resource as unknown as ScimResource, operations as ScimPatchOperation[], {
      mutateDocument: false,
    }) as unknown as Record<string, unknown>;
  } catch (error) {
    const code = (error as { scimCode?: string }).scimCode;
    throw new ScimError(
      400,
      (error as Error).message,
      code === "noTarget" || code === "invalidPath" ? code : "invalidSyntax",
    );
  }
}
