import { AwsV4Signer } from "aws4fetch";

import { env } from "@/lib/env";
import { errors } from "@/lib/http/errors";
import { createOutbound, normalizeHost, type Outbound } from "@/lib/http/outbound";

// S3-compatible object storage (AWS S3, MinIO, R2, …) for uploads, used when S3_BUCKET is set.
// Everything is a presigned URL (AWS Signature V4 in the query, signed by aws4fetch): the client PUTs
// straight to the bucket, the pipeline GETs from it, and cleanup DELETEs. Temporary credentials
// (STS, IRSA, instance roles) carry a session token, sent as X-Amz-Security-Token.
// The endpoint is the operator's, so these requests do not go through the outbound guard (which exists
// for user-supplied URLs): a MinIO at http://minio:9000 is a private address and that is fine.

export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  /** For temporary credentials (STS, IRSA, instance roles). */
  sessionToken?: string;
}

export interface S3Config {
  bucket: string;
  region: string;
  /** Base URL of the service, without a trailing slash. */
  endpoint: string;
  forcePathStyle: boolean;
  credentials: Credentials;
}

/** The configured storage, or null for local disk under DATA_DIR. */
export function s3Config(): S3Config | null {
  const settings = env();
  if (!settings.S3_BUCKET) return null;
  if (!settings.S3_ACCESS_KEY_ID || !settings.S3_SECRET_ACCESS_KEY) {
    throw errors.notConfigured(
      "storage_not_configured",
      "Upload storage is misconfigured: S3_BUCKET is set without S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY.",
    );
  }
  return {
    bucket: settings.S3_BUCKET,
    region: settings.S3_REGION,
    endpoint: (settings.S3_ENDPOINT ?? `https://s3.${settings.S3_REGION}.amazonaws.com`).replace(/\/+$/, ""),
    forcePathStyle: settings.S3_FORCE_PATH_STYLE,
    credentials: {
      accessKeyId: settings.S3_ACCESS_KEY_ID,
      secretAccessKey: settings.S3_SECRET_ACCESS_KEY,
      ...(settings.S3_SESSION_TOKEN ? { sessionToken: settings.S3_SESSION_TOKEN } : {}),
    },
  };
}

/** RFC 3986 encoding of a path segment (S3's: everything but unreserved characters), "/" kept when asked. */
function uriEncode(value: string, keepSlash = false): string {
  const encoded = encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return keepSlash ? encoded.replaceAll("%2F", "/") : encoded;
}

/** The object's URL: https://endpoint/bucket/key (path style) or https://bucket.endpoint/key. */
export function objectUrl(config: S3Config, key: string): URL {
  const base = new URL(config.endpoint);
  const prefix = base.pathname.replace(/\/+$/, "");
  const encodedKey = uriEncode(key, true);
  if (config.forcePathStyle) return new URL(`${base.origin}${prefix}/${uriEncode(config.bucket)}/${encodedKey}`);
  return new URL(`${base.protocol}//${config.bucket}.${base.host}${prefix}/${encodedKey}`);
}

export interface PresignObjectOptions {
  method: "GET" | "PUT" | "DELETE" | "HEAD";
  key: string;
  expiresSeconds: number;
  /** Headers the request must carry with exactly these values (signed). */
  headers?: Record<string, string>;
  now?: Date;
}

/** A presigned URL for one request on one object (query-string SigV4, unsigned payload). */
export async function presignObject(config: S3Config, options: PresignObjectOptions): Promise<string> {
  const url = objectUrl(config, options.key);
  url.searchParams.set("X-Amz-Expires", String(options.expiresSeconds));
  const signer = new AwsV4Signer({
    method: options.method,
    url: url.toString(),
    headers: options.headers,
    accessKeyId: config.credentials.accessKeyId,
    secretAccessKey: config.credentials.secretAccessKey,
    sessionToken: config.credentials.sessionToken,
    service: "s3",
    region: config.region,
    datetime: (options.now ?? new Date()).toISOString().replace(/[:-]|\.\d{3}/g, ""),
    signQuery: true,
    // Content-Type is among the headers aws4fetch leaves unsigned by default; a PUT URL must bind it.
    allHeaders: true,
  });
  return (await signer.sign()).url.toString();
}

/** A PUT URL that only accepts this exact Content-Type. */
export function presignPut(
  config: S3Config,
  key: string,
  contentType: string,
  expiresSeconds: number,
  now?: Date,
): Promise<string> {
  return presignObject(config, { method: "PUT", key, expiresSeconds, headers: { "content-type": contentType }, now });
}

const storageClients = new Map<string, Outbound>();

/**
 * The client for reading the app's own bucket (the pipeline's download of an upload): the size caps
 * and timeouts of the outbound module, but the storage host is exempt from the private-address rule
 * and no OUTBOUND_PROXY is used: the endpoint is configuration, not user input.
 */
export function storageOutbound(config: S3Config): Outbound {
  const host = normalizeHost(objectUrl(config, "k").hostname);
  let client = storageClients.get(host);
  if (!client) {
    client = createOutbound({ allowPrivateFor: (h) => h === host });
    storageClients.set(host, client);
  }
  return client;
}

export interface ObjectHead {
  /** The first bytes (up to `bytes`). */
  head: Uint8Array;
  sizeBytes: number;
}

/** The first `bytes` bytes and the total size, or null when there is no such object. */
export async function readObjectHead(config: S3Config, key: string, bytes: number): Promise<ObjectHead | null> {
  const url = await presignObject(config, { method: "GET", key, expiresSeconds: 60 });
  const response = await fetch(url, {
    headers: { range: `bytes=0-${bytes - 1}` },
    signal: AbortSignal.timeout(15_000),
  });
  // S3 answers 403 rather than 404 for a missing key when the credentials may not list the bucket.
  if (response.status === 404 || response.status === 403) {
    await response.body?.cancel();
    return null;
  }
  // An empty object cannot satisfy any range.
  if (response.status === 416) {
    await response.body?.cancel();
    return { head: new Uint8Array(), sizeBytes: 0 };
  }
  if (response.status !== 200 && response.status !== 206) {
    await response.body?.cancel();
    throw errors.upstream(`Upload storage answered ${response.status} reading an object.`);
  }
  const head = new Uint8Array(await response.arrayBuffer()).subarray(0, bytes);
  const total =
    /\/(\d+)\s*$/.exec(response.headers.get("content-range") ?? "")?.[1] ?? response.headers.get("content-length");
  return { head, sizeBytes: Number(total ?? head.length) };
}

/** Deletes the object; true when it is gone (including when it never existed). */
export async function deleteObject(config: S3Config, key: string): Promise<boolean> {
  const url = await presignObject(config, { method: "DELETE", key, expiresSeconds: 60 });
  const response = await fetch(url, { method: "DELETE", signal: AbortSignal.timeout(15_000) });
  await response.body?.cancel();
  return response.ok || response.status === 404;
}
