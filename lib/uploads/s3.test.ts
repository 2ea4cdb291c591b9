import { describe, expect, it } from "vitest";
import { objectUrl, presignObject, presignPut, type S3Config } from "@/lib/uploads/s3";

// Presigned URLs for fixed keys and a fixed clock. The expected signatures were computed
// separately (Python hmac/hashlib, from the canonical request written out by hand), not by this code.

const credentials = { accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY" };
const aws: S3Config = { bucket: "verbatim-uploads", region: "eu-central-1", endpoint: "https://s3.eu-central-1.amazonaws.com", forcePathStyle: false, credentials };
const minio: S3Config = { ...aws, endpoint: "http://127.0.0.1:9000", forcePathStyle: true };
const KEY = "uploads/cmuser1/AAAAAAAAAAAAAAAAAAAAAA/Talk_final.wav";
const NOW = new Date("2026-01-02T03:04:05Z");
const CREDENTIAL = "X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20260102%2Feu-central-1%2Fs3%2Faws4_request";

describe("S3 presigned URLs", () => {
  it("PUT, virtual-hosted: content-type signed, 15 minutes, unsigned payload", () => {
    expect(presignPut(aws, KEY, "audio/wav", 900, NOW)).toBe(
      `https://verbatim-uploads.s3.eu-central-1.amazonaws.com/${KEY}?X-Amz-Algorithm=AWS4-HMAC-SHA256&${CREDENTIAL}` +
        "&X-Amz-Date=20260102T030405Z&X-Amz-Expires=900&X-Amz-SignedHeaders=content-type%3Bhost" +
        "&X-Amz-Signature=b2641424d0e1ef1128a627001e6e6dfb9a7945970bceb9c541c8fd864b966161",
    );
  });

  it("PUT, path style against a custom endpoint (MinIO and the like)", () => {
    expect(presignPut(minio, KEY, "video/x-matroska", 900, NOW)).toBe(
      `http://127.0.0.1:9000/verbatim-uploads/${KEY}?X-Amz-Algorithm=AWS4-HMAC-SHA256&${CREDENTIAL}` +
        "&X-Amz-Date=20260102T030405Z&X-Amz-Expires=900&X-Amz-SignedHeaders=content-type%3Bhost" +
        "&X-Amz-Signature=4d482675b6a40dcc2b89be6dee6c8132236ad5ad21338f088626400f8e857220",
    );
  });

  it("GET for the pipeline, path style, one hour", () => {
    expect(presignObject(minio, { method: "GET", key: KEY, expiresSeconds: 3600, now: NOW })).toBe(
      `http://127.0.0.1:9000/verbatim-uploads/${KEY}?X-Amz-Algorithm=AWS4-HMAC-SHA256&${CREDENTIAL}` +
        "&X-Amz-Date=20260102T030405Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host" +
        "&X-Amz-Signature=b597d214e3d20f3a7c5350ba91d3a197f8c895ba8bf4b802b17ffbf1e8becf56",
    );
  });

  it("changes the signature with the content type, the clock or the key", () => {
    const signature = (url: string) => new URL(url).searchParams.get("X-Amz-Signature");
    const base = signature(presignPut(aws, KEY, "audio/wav", 900, NOW));
    expect(signature(presignPut(aws, KEY, "audio/mpeg", 900, NOW))).not.toBe(base);
    expect(signature(presignPut(aws, KEY, "audio/wav", 900, new Date(NOW.getTime() + 1000)))).not.toBe(base);
    expect(signature(presignPut(aws, KEY.replace("Talk", "talk"), "audio/wav", 900, NOW))).not.toBe(base);
  });

  it("builds object URLs: encoded keys, endpoint path prefixes kept", () => {
    expect(objectUrl(minio, "uploads/a b/c~d.wav").toString()).toBe("http://127.0.0.1:9000/verbatim-uploads/uploads/a%20b/c~d.wav");
    expect(objectUrl({ ...minio, endpoint: "https://storage.example.com/s3" }, "k").toString()).toBe("https://storage.example.com/s3/verbatim-uploads/k");
    expect(objectUrl({ ...aws, endpoint: "https://acct.r2.cloudflarestorage.com" }, "k").toString()).toBe("https://verbatim-uploads.acct.r2.cloudflarestorage.com/k");
  });
});
