import { createHash, createHmac } from "node:crypto";

// AWS Signature Version 4, written from AWS's published specification ("Create a signed AWS API
// request" and S3's "Authenticating Requests: Using Query Parameters"). Only what uploads need:
// presigned URLs for S3-compatible storage, plus header signing so the shared core can be checked
// against AWS's SigV4 test-suite vectors (see sigv4.test.ts). Pure: the clock is an argument.

export const ALGORITHM = "AWS4-HMAC-SHA256";
export const UNSIGNED_PAYLOAD = "UNSIGNED-PAYLOAD";
export const EMPTY_SHA256 = sha256Hex("");

export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
}

export function sha256Hex(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac("sha256", key).update(data, "utf8").digest();
}

/** SigV4's URI encoding: every byte but A-Z a-z 0-9 - . _ ~ as %XX (upper case); "/" kept when asked. */
export function uriEncode(value: string, keepSlash = false): string {
  let out = "";
  for (const byte of Buffer.from(value, "utf8")) {
    const char = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-._~]/.test(char) || (keepSlash && char === "/")) out += char;
    else out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** 2013-05-24T00:00:00.000Z → 20130524T000000Z */
export function amzDate(date: Date): string {
  return date.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
}

/** kSigning = HMAC(HMAC(HMAC(HMAC("AWS4" + secret, date), region), service), "aws4_request") */
export function signingKey(secretAccessKey: string, dateStamp: string, region: string, service: string): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, dateStamp), region), service), "aws4_request");
}

export interface RequestToSign {
  method: string;
  /** The canonical URI: the path as sent, already URI-encoded (S3 style: encoded once). */
  canonicalUri: string;
  /** Query parameters, not encoded; all are signed. */
  query: [string, string][];
  /** Headers to sign (names in any case). Must include host. */
  headers: Record<string, string>;
  /** Hex SHA-256 of the body, or UNSIGNED-PAYLOAD. */
  payloadHash: string;
}

export interface SigningScope {
  credentials: Credentials;
  region: string;
  service: string;
  date: Date;
}

export function canonicalQuery(query: [string, string][]): string {
  return query
    .map(([name, value]) => [uriEncode(name), uriEncode(value)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
}

export function canonicalRequest(request: RequestToSign): { canonical: string; signedHeaders: string } {
  const headers = Object.entries(request.headers)
    .map(([name, value]) => [name.toLowerCase().trim(), value.trim().replace(/\s+/g, " ")] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const signedHeaders = headers.map(([name]) => name).join(";");
  const canonical = [
    request.method.toUpperCase(),
    request.canonicalUri || "/",
    canonicalQuery(request.query),
    headers.map(([name, value]) => `${name}:${value}\n`).join(""),
    signedHeaders,
    request.payloadHash,
  ].join("\n");
  return { canonical, signedHeaders };
}

export interface Signature {
  canonicalRequest: string;
  stringToSign: string;
  signedHeaders: string;
  credentialScope: string;
  signature: string;
}

export function sign(request: RequestToSign, scope: SigningScope): Signature {
  const stamp = amzDate(scope.date);
  const day = stamp.slice(0, 8);
  const credentialScope = `${day}/${scope.region}/${scope.service}/aws4_request`;
  const { canonical, signedHeaders } = canonicalRequest(request);
  const stringToSign = [ALGORITHM, stamp, credentialScope, sha256Hex(canonical)].join("\n");
  const key = signingKey(scope.credentials.secretAccessKey, day, scope.region, scope.service);
  const signature = createHmac("sha256", key).update(stringToSign, "utf8").digest("hex");
  return { canonicalRequest: canonical, stringToSign, signedHeaders, credentialScope, signature };
}

/** The Authorization header for a request signed in headers (the request must carry x-amz-date). */
export function authorizationHeader(request: RequestToSign, scope: SigningScope): string {
  const { credentialScope, signedHeaders, signature } = sign(request, scope);
  return `${ALGORITHM} Credential=${scope.credentials.accessKeyId}/${credentialScope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
}

export interface PresignOptions extends SigningScope {
  method: string;
  /** The target; its pathname must already be URI-encoded, its query parameters are kept and signed. */
  url: URL;
  expiresSeconds: number;
  /** Headers the request must carry with exactly these values (e.g. content-type), besides host. */
  headers?: Record<string, string>;
}

/** A presigned URL (query-string authentication, unsigned payload). */
export function presignUrl(options: PresignOptions): string {
  if (!Number.isInteger(options.expiresSeconds) || options.expiresSeconds < 1 || options.expiresSeconds > 604800) {
    throw new RangeError("SigV4 presigned URLs expire in 1 s to 7 days");
  }
  const stamp = amzDate(options.date);
  const credentialScope = `${stamp.slice(0, 8)}/${options.region}/${options.service}/aws4_request`;
  const headers: Record<string, string> = { host: options.url.host };
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
  const signedHeaders = Object.keys(headers).sort().join(";");
  const query: [string, string][] = [
    ...options.url.searchParams.entries(),
    ["X-Amz-Algorithm", ALGORITHM],
    ["X-Amz-Credential", `${options.credentials.accessKeyId}/${credentialScope}`],
    ["X-Amz-Date", stamp],
    ["X-Amz-Expires", String(options.expiresSeconds)],
    ["X-Amz-SignedHeaders", signedHeaders],
  ];
  const { signature } = sign(
    { method: options.method, canonicalUri: options.url.pathname, query, headers, payloadHash: UNSIGNED_PAYLOAD },
    options,
  );
  // The signature goes last, as in AWS's own examples (parameter order does not matter to S3).
  return `${options.url.origin}${options.url.pathname}?${canonicalQuery(query)}&X-Amz-Signature=${signature}`;
}
