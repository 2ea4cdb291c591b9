import { describe, expect, it } from "vitest";
import { authorizationHeader, canonicalQuery, EMPTY_SHA256, presignUrl, sha256Hex, sign, signingKey, uriEncode } from "@/lib/uploads/sigv4";

// Known answers published by AWS: the SigV4 test suite (aws-sig-v4-test-suite: credentials
// AKIDEXAMPLE, 2015-08-30T12:36:00Z, us-east-1, service "service"), the signing-key derivation
// example, and S3's query-string and header examples (examplebucket, 2013-05-24).

const SUITE = {
  credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" },
  region: "us-east-1",
  service: "service",
  date: new Date("2015-08-30T12:36:00Z"),
};
const SUITE_HEADERS = { Host: "example.amazonaws.com", "X-Amz-Date": "20150830T123600Z" };
const S3_EXAMPLE = {
  credentials: { accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY" },
  region: "us-east-1",
  service: "s3",
  date: new Date("2013-05-24T00:00:00Z"),
};

function suiteRequest(method: string, path: string, query: [string, string][] = []) {
  return { method, canonicalUri: new URL(path, "https://example.amazonaws.com").pathname, query, headers: SUITE_HEADERS, payloadHash: EMPTY_SHA256 };
}

describe("SigV4 against AWS's published vectors", () => {
  it("derives the documented signing key (20120215/us-east-1/iam)", () => {
    expect(signingKey("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "20120215", "us-east-1", "iam").toString("hex")).toBe(
      "f4780e2d9f65fa895f9c67b32ce1baf0b0d8a43505a000a1a9e090d414db404d",
    );
  });

  it("get-vanilla: canonical request, string to sign and Authorization header", () => {
    const signed = sign(suiteRequest("GET", "/"), SUITE);
    expect(signed.canonicalRequest).toBe(
      "GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\ne3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    );
    expect(signed.stringToSign).toBe(
      "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\nbb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63",
    );
    expect(authorizationHeader(suiteRequest("GET", "/"), SUITE)).toBe(
      "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31",
    );
  });

  it("get-vanilla-query-order-key-case, post-vanilla and get-utf8", () => {
    const query: [string, string][] = [
      ["Param2", "value2"],
      ["Param1", "value1"],
    ];
    expect(sign(suiteRequest("GET", "/", query), SUITE).signature).toBe("b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500");
    expect(sign(suiteRequest("POST", "/"), SUITE).signature).toBe("5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b");
    expect(sign(suiteRequest("GET", "/\u1234"), SUITE).signature).toBe("8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85");
  });

  it("S3 header example: GET /test.txt with a Range header", () => {
    const signed = sign(
      {
        method: "GET",
        canonicalUri: "/test.txt",
        query: [],
        headers: { host: "examplebucket.s3.amazonaws.com", range: "bytes=0-9", "x-amz-content-sha256": EMPTY_SHA256, "x-amz-date": "20130524T000000Z" },
        payloadHash: EMPTY_SHA256,
      },
      S3_EXAMPLE,
    );
    expect(signed.signature).toBe("f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
  });

  it("S3 query-string example: the presigned GET URL, byte for byte", () => {
    const url = presignUrl({ ...S3_EXAMPLE, method: "GET", url: new URL("https://examplebucket.s3.amazonaws.com/test.txt"), expiresSeconds: 86400 });
    expect(url).toBe(
      "https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404",
    );
    const canonical =
      "GET\n/test.txt\nX-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host\nhost:examplebucket.s3.amazonaws.com\n\nhost\nUNSIGNED-PAYLOAD";
    expect(sha256Hex(canonical)).toBe("3bfa292879f6447bbcda7001decf97f4a54dc650c8942174ae0a9121cf58ad04");
  });
});

describe("SigV4 building blocks", () => {
  it("URI-encodes every byte but the unreserved set, keeping / only for paths", () => {
    expect(uriEncode("a b/c~d._-*+=é")).toBe("a%20b%2Fc~d._-%2A%2B%3D%C3%A9");
    expect(uriEncode("uploads/u1/a b.wav", true)).toBe("uploads/u1/a%20b.wav");
  });

  it("sorts query parameters by encoded name, then value", () => {
    expect(
      canonicalQuery([
        ["b", "2"],
        ["a", "z"],
        ["a", "y"],
        ["A", "0"],
      ]),
    ).toBe("A=0&a=y&a=z&b=2");
  });

  it("refuses expiry outside SigV4's 1 s … 7 days", () => {
    const base = { ...S3_EXAMPLE, method: "GET", url: new URL("https://examplebucket.s3.amazonaws.com/test.txt") };
    expect(() => presignUrl({ ...base, expiresSeconds: 0 })).toThrow(RangeError);
    expect(() => presignUrl({ ...base, expiresSeconds: 604801 })).toThrow(RangeError);
  });
});
