import { describe, expect, it } from "vitest";
import { objectUrl, presignObject, presignPut, type S3Config } from "@/lib/uploads/s3";

// Presigned URLs for fixed keys and a fixed clock. The expected signatures were computed
// separately (Python hmac/hashlib, from the canonical request written out by hand, for the previous
// hand-written signer), and one is AWS's own published example; none comes from aws4fetch.

const credentials = {
  accessKeyId: "AKIAIOSFODNN7EXAMPLE",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
};
const aws: S3Config = {
  bucket: "verbatim-uploads",
  region: "eu-central-1",
  endpoint: "https://s3.eu-central-1.amazonaws.com",
  forcePathStyle: false,
  credentials,
};
const minio: S3Config = { ...aws, endpoint: "http://127.0.0.1:9000", forcePathStyle: true };
const KEY = "uploads/cmuser1/AAAAAAAAAAAAAAAAAAAAAA/Talk_final.wav";
const NOW = new Date("2026-01-02T03:04:05Z");
const CREDENTIAL = "AKIAIOSFODNN7EXAMPLE/20260102/eu-central-1/s3/aws4_request";

/** The URL without its query, and its query parameters (order is not part of the signature). */
function parts(url: string): { base: string; query: Record<string, string> } {
  const u = new URL(url);
  return { base: `${u.origin}${u.pathname}`, query: Object.fromEntries(u.searchParams) };
}

describe("S3 presigned URLs", () => {
  it("PUT, virtual-hosted: content-type signed, 15 minutes, unsigned payload", async () => {
    expect(parts(await presignPut(aws, KEY, "audio/wav", 900, NOW))).toEqual({
      base: `https://verbatim-uploads.s3.eu-central-1.amazonaws.com/${KEY}`,
      query: {
        "X-Amz-Algorithm": "AWS4-HMAC-SHA256",
        "X-Amz-Credential": CREDENTIAL,
        "X-Amz-Date": "20260102T030405Z",
        "X-Amz-Expires": "900",
        "X-Amz-SignedHeaders": "content-type;host",
        "X-Amz-Signature": "b2641424d0e1ef1128a627001e6e6dfb9a7945970bceb9c541c8fd864b966161",
      },
    });
  });

  it("PUT, path style against a custom endpoint (MinIO and the like)", async () => {
    const { base, query } = parts(await presignPut(minio, KEY, "video/x-matroska", 900, NOW));
    expect(base).toBe(`http://127.0.0.1:9000/verbatim-uploads/${KEY}`);
    expect(query["X-Amz-Signature"]).toBe("4d482675b6a40dcc2b89be6dee6c8132236ad5ad21338f088626400f8e857220");
  });

  it("GET for the pipeline, path style, one hour", async () => {
    const { base, query } = parts(
      await presignObject(minio, { method: "GET", key: KEY, expiresSeconds: 3600, now: NOW }),
    );
    expect(base).toBe(`http://127.0.0.1:9000/verbatim-uploads/${KEY}`);
    expect(query).toMatchObject({ "X-Amz-Expires": "3600", "X-Amz-SignedHeaders": "host" });
    expect(query["X-Amz-Signature"]).toBe("b597d214e3d20f3a7c5350ba91d3a197f8c895ba8bf4b802b17ffbf1e8becf56");
  });

  it("matches AWS's published presigned-URL example (GET examplebucket/test.txt, 24 hours)", async () => {
    const example: S3Config = {
      bucket: "examplebucket",
      region: "us-east-1",
      endpoint: "https://s3.amazonaws.com",
      forcePathStyle: false,
      credentials,
    };
    const url = await presignObject(example, {
      method: "GET",
      key: "test.txt",
      expiresSeconds: 86400,
      now: new Date("2013-05-24T00:00:00Z"),
    });
    expect(parts(url).base).toBe("https://examplebucket.s3.amazonaws.com/test.txt");
    expect(parts(url).query["X-Amz-Signature"]).toBe(
      "aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404",
    );
  });

  it("sends the session token of temporary credentials (STS, IRSA), inside the signature", async () => {
    const temporary: S3Config = {
      ...aws,
      credentials: { ...credentials, sessionToken: "IQoJb3JpZ2luX2VjEXAMPLE/token+with=chars" },
    };
    const withToken = parts(await presignPut(temporary, KEY, "audio/wav", 900, NOW));
    expect(withToken.query["X-Amz-Security-Token"]).toBe("IQoJb3JpZ2luX2VjEXAMPLE/token+with=chars");
    expect(withToken.query["X-Amz-Signature"]).not.toBe(
      "b2641424d0e1ef1128a627001e6e6dfb9a7945970bceb9c541c8fd864b966161",
    );
    expect(parts(await presignPut(aws, KEY, "audio/wav", 900, NOW)).query).not.toHaveProperty("X-Amz-Security-Token");
  });

  it("changes the signature with the content type, the clock or the key", async () => {
    const signature = async (url: Promise<string>) => new URL(await url).searchParams.get("X-Amz-Signature");
    const base = await signature(presignPut(aws, KEY, "audio/wav", 900, NOW));
    expect(await signature(presignPut(aws, KEY, "audio/mpeg", 900, NOW))).not.toBe(base);
    expect(await signature(presignPut(aws, KEY, "audio/wav", 900, new Date(NOW.getTime() + 1000)))).not.toBe(base);
    expect(await signature(presignPut(aws, KEY.replace("Talk", "talk"), "audio/wav", 900, NOW))).not.toBe(base);
  });

  it("builds object URLs: encoded keys, endpoint path prefixes kept", () => {
    expect(objectUrl(minio, "uploads/a b/c~d.wav").toString()).toBe(
      "http://127.0.0.1:9000/verbatim-uploads/uploads/a%20b/c~d.wav",
    );
    expect(objectUrl({ ...minio, endpoint: "https://storage.example.com/s3" }, "k").toString()).toBe(
      "https://storage.example.com/s3/verbatim-uploads/k",
    );
    expect(objectUrl({ ...aws, endpoint: "https://acct.r2.cloudflarestorage.com" }, "k").toString()).toBe(
      "https://verbatim-uploads.acct.r2.cloudflarestorage.com/k",
    );
  });
});
