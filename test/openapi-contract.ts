import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";

// Checks an answer against /openapi.json the way a user's generated client would: the status must be one the
// operation documents, the Content-Type one of that status's media types, and a JSON body must validate
// (Ajv, JSON Schema 2020-12) against the schema given there. test/request.ts's callRoute runs every answer
// through `checkResponse` while a check is installed (`checkEveryResponse`), so any integration test can opt in.

type Json = Record<string, unknown>;
interface MediaType {
  schema?: Json;
}
interface Response {
  content?: Record<string, MediaType>;
}
interface Operation {
  responses: Record<string, Response>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: Json;
}

export interface Exchange {
  method: string;
  url: string;
  status: number;
  contentType: string | null;
  text: string;
}

// ajv-formats is CommonJS: its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => void;

export class ContractChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  /** "METHOD /path status content-type" of every answer checked, for the coverage figures. */
  readonly seen = new Set<string>();
  readonly mismatches: string[] = [];
  /** How many answers were checked. */
  checked = 0;

  constructor(
    private readonly document: OpenApiDocument,
    /** Pass over answers of paths the document does not describe (pages, /mcp, signed upload targets). */
    private readonly options: { onlyDocumentedPaths?: boolean } = {},
  ) {
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: "openapi.json", components: document.components });
  }

  /** The documented path an URL's pathname is an instance of (a literal path before a template). */
  operationPath(method: string, pathname: string): string | null {
    const candidates = Object.keys(this.document.paths).filter((path) => this.document.paths[path][method]);
    if (candidates.includes(pathname)) return pathname;
    for (const path of candidates) {
      const pattern = new RegExp(`^${path.replace(/[.]/g, "\\.").replace(/\{\w+\}/g, "[^/]+")}$`);
      if (pattern.test(pathname)) return path;
    }
    return null;
  }

  /** Problems with one answer (empty when it is as documented); also recorded in `mismatches`. */
  check(exchange: Exchange): string[] {
    const method = exchange.method.toLowerCase();
    const pathname = new URL(exchange.url, "http://localhost").pathname;
    const path = this.operationPath(method, pathname);
    const label = `${exchange.method} ${path ?? pathname} ${exchange.status}`;
    const problems: string[] = [];
    if (!path && this.options.onlyDocumentedPaths) return problems;
    if (!path) {
      problems.push(`${label}: no such operation in /openapi.json`);
    } else {
      const response = this.document.paths[path][method].responses[String(exchange.status)];
      const mediaType = (exchange.contentType ?? "").split(";")[0].trim().toLowerCase();
      this.checked += 1;
      this.seen.add(`${exchange.method} ${path} ${exchange.status} ${mediaType || "-"}`);
      if (!response) problems.push(`${label}: status not documented`);
      else if (!response.content) {
        if (exchange.text !== "") problems.push(`${label}: a body where the document says none`);
      } else {
        const documented = Object.keys(response.content);
        const key = documented.find((type) =>
          type.endsWith("/*") ? mediaType.startsWith(type.slice(0, -1)) : type === mediaType,
        );
        if (!key)
          problems.push(`${label}: Content-Type ${mediaType || "(none)"} is not one of ${documented.join(", ")}`);
        else problems.push(...this.checkBody(label, key, response.content[key].schema ?? {}, exchange.text));
      }
    }
    this.mismatches.push(...problems);
    return problems;
  }

  private checkBody(label: string, mediaType: string, schema: Json, text: string): string[] {
    const isJson = mediaType === "application/json" || mediaType.endsWith("+json");
    let body: unknown = text;
    if (isJson) {
      try {
        body = JSON.parse(text);
      } catch {
        return [`${label}: ${mediaType} body is not JSON: ${text.slice(0, 80)}`];
      }
    } else if (schema.contentMediaType) {
      return []; // bytes: nothing to validate beyond the type
    }
    const key = JSON.stringify(schema);
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(JSON.parse(key.replaceAll('"#/components/', '"openapi.json#/components/')) as Json);
      this.compiled.set(key, validate);
    }
    if (validate(body)) return [];
    const errors = (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? ""}`).join("; ");
    return [`${label}: body does not match the schema (${errors}): ${text.slice(0, 200)}`];
  }
}

let installed: ContractChecker | null = null;

/** From now on callRoute checks every answer with `checker` (null: stop). */
export function checkEveryResponse(checker: ContractChecker | null) {
  installed = checker;
}

/** Called by callRoute with each answer. */
export function checkResponse(exchange: Exchange) {
  installed?.check(exchange);
}
