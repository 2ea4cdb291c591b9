import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { decodeFeed } from "@/lib/podcasts/decode-feed";

// A real ISO-8859-1 feed (test/fixtures/feeds/jn-iso-8859-1.rss, see the README there), and small hand-made byte
// strings for the orders of precedence no recording shows.
const jn = readFileSync(new URL("../../test/fixtures/feeds/jn-iso-8859-1.rss", import.meta.url));
const FIRST_TITLE = "Mãe de utente é a nova presidente da Raríssimas";

const xml = (declaration: string, body: string, encoding: BufferEncoding = "latin1") =>
  Buffer.from(`${declaration}<rss version="2.0"><channel><title>${body}</title></channel></rss>`, encoding);

describe("decodeFeed", () => {
  it("reads a real ISO-8859-1 feed by its XML declaration", () => {
    expect(jn.includes(Buffer.from("Raríssimas", "utf8"))).toBe(false); // really single-byte
    const text = decodeFeed(jn, "application/rss+xml");
    expect(text).toContain("<title>Jornal de Notícias - Últimas Notícias</title>");
    expect(text).toContain(FIRST_TITLE);
    expect(decodeFeed(jn, null)).toBe(text);
  });

  it("a Content-Type charset comes before the declaration", () => {
    // Declared ISO-8859-2, served as ISO-8859-1: byte 0xE6 is æ in the latter and ć in the former.
    const bytes = xml('<?xml version="1.0" encoding="ISO-8859-2"?>', "Cæsar");
    expect(decodeFeed(bytes, "text/xml; charset=ISO-8859-1")).toContain("<title>Cæsar</title>");
    expect(decodeFeed(bytes, 'application/rss+xml; charset="iso-8859-1"')).toContain("<title>Cæsar</title>");
    expect(decodeFeed(bytes, "application/rss+xml")).toContain("<title>Cćsar</title>");
  });

  it("passes over a charset the bytes are not valid in, and labels nothing knows", () => {
    expect(decodeFeed(jn, "application/rss+xml; charset=utf-8")).toContain(FIRST_TITLE);
    expect(decodeFeed(jn, "text/xml; charset=no-such-encoding")).toContain(FIRST_TITLE);
    const undeclared = xml('<?xml version="1.0"?>', "Notícias");
    expect(decodeFeed(undeclared, "text/xml")).toContain("<title>Notícias</title>"); // not UTF-8, so windows-1252
    expect(decodeFeed(xml('<?xml version="1.0" encoding="bogus"?>', "Notícias", "utf8"), null)).toContain(
      "<title>Notícias</title>",
    );
  });

  it("a byte order mark decides over everything; UTF-8 is the default", () => {
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      xml('<?xml version="1.0" encoding="UTF-16"?>', "Ünïcode", "utf16le"),
    ]);
    expect(decodeFeed(utf16, "text/xml; charset=iso-8859-1")).toMatch(/^<\?xml .*<title>Ünïcode<\/title>/);
    const bom8 = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      xml('<?xml version="1.0" encoding="ISO-8859-1"?>', "Ünïcode", "utf8"),
    ]);
    expect(decodeFeed(bom8, null)).toMatch(/^<\?xml .*<title>Ünïcode<\/title>/);
    expect(decodeFeed(xml("", "Ünïcode", "utf8"), "application/rss+xml")).toContain("<title>Ünïcode</title>");
  });
});
