import { describe, expect, it } from "vitest";
import { serverAddress } from "./server";

describe("the person's server address", () => {
  it("is an origin and the host pattern asked for", () => {
    expect(serverAddress("verbatim.example.org/dashboard")).toEqual({
      ok: true,
      origin: "https://verbatim.example.org",
      pattern: "https://verbatim.example.org/*",
    });
    expect(serverAddress(" http://127.0.0.1:3000/ ")).toEqual({
      ok: true,
      origin: "http://127.0.0.1:3000",
      pattern: "http://127.0.0.1/*",
    });
  });

  it("refuses plain http off this machine, other schemes, credentials and nothing", () => {
    expect(serverAddress("http://verbatim.example.org")).toMatchObject({ ok: false });
    expect(serverAddress("ftp://verbatim.example.org")).toMatchObject({ ok: false });
    expect(serverAddress("https://me:pw@verbatim.example.org")).toMatchObject({ ok: false });
    expect(serverAddress("  ")).toMatchObject({ ok: false });
    expect(serverAddress("https://")).toMatchObject({ ok: false });
  });
});
