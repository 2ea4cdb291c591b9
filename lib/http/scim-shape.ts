// SCIM 2.0's error shape (RFC 7644 §3.12), here beside the contract's so that the request guard can answer a
// /scim/v2 request in it before any SCIM code runs; lib/scim answers in it through the same function.

export const SCIM_MEDIA_TYPE = "application/scim+json";
export const SCIM_ERROR_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:Error";

/** True for a path SCIM's routes answer (app/scim/v2). */
export function isScimPath(path: string): boolean {
  return /^\/scim\/v2(\/|$)/.test(path);
}

export interface ScimErrorBody {
  schemas: [typeof SCIM_ERROR_SCHEMA];
  /** The HTTP status, as a string. */
  status: string;
  scimType?: string;
  detail: string;
}

export function scimErrorBody(status: number, detail: string, scimType?: string): ScimErrorBody {
  return { schemas: [SCIM_ERROR_SCHEMA], status: String(status), ...(scimType ? { scimType } : {}), detail };
}
