// Every machine code the API answers with in `{"detail", "code"}` (or as a 422 item's `type`): its HTTP
// status, whether the same request may work later, and what it means. `new ApiError(code)` takes only these,
// /openapi.json lists them, and the dashboard, the CLI and the typed client read `retryable` from here.
// One closed list, kept in error-codes/ by status family (each file a group) and joined here in one object, so
// ERROR_CODES, ErrorCode and the order of the codes are those of one list; a code in two groups is a type error
// below (and a test's). Imported by browser code and the CLI bundle: these files import nothing but each other.
// client/src/error-codes.ts and client/src/error-codes/ are generated from them (`npm run client:generate`).
// OAuth's token endpoint answers RFC 6749's own `error` strings (lib/oauth); they are not listed here.
import { CONFLICT_CODES } from "./error-codes/conflict";
import type { ErrorCodeInfo } from "./error-codes/info";
import { INPUT_CODES } from "./error-codes/input";
import { JOB_CODES } from "./error-codes/job";
import { REQUEST_CODES } from "./error-codes/request";
import { SERVER_CODES } from "./error-codes/server";

export type { ErrorCodeInfo };

/** The groups, in the list's order. */
export const ERROR_CODE_GROUPS = [REQUEST_CODES, CONFLICT_CODES, INPUT_CODES, SERVER_CODES, JOB_CODES] as const;

/** The codes that more than one of `Groups` holds (never when each code is in one group). */
export type RepeatedCode<Groups extends readonly object[], Seen = never> = Groups extends readonly [
  infer Group,
  ...infer Rest extends readonly object[],
]
  ? (keyof Group & Seen) | RepeatedCode<Rest, Seen | keyof Group>
  : never;

type None<T extends never> = T;
/** A code in two groups fails here: "Type '"the_code"' does not satisfy the constraint 'never'". */
export type CodesInTwoGroups = None<RepeatedCode<typeof ERROR_CODE_GROUPS>>;

export const ERROR_CODES = {
  ...REQUEST_CODES,
  ...CONFLICT_CODES,
  ...INPUT_CODES,
  ...SERVER_CODES,
  ...JOB_CODES,
} as const satisfies Record<string, ErrorCodeInfo>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const ERROR_CODE_NAMES = Object.keys(ERROR_CODES) as ErrorCode[];

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === "string" && Object.hasOwn(ERROR_CODES, code);
}

/** Whether asking again may work, for a code an API answer carried (unknown codes: no). */
export function isRetryableCode(code: string | null | undefined): boolean {
  return isErrorCode(code) && ERROR_CODES[code].retryable;
}
