/**
 * YouTube's XML timedtext formats.
 *
 * srv3 (`fmt=srv3`): `<timedtext format="3"><body><p t="80" d="4040" w="1"><s ac="0">hey</s>
 * <s t="320" ac="0"> guys</s></p><p t="2430" d="1690" w="1" a="1">\n</p>...</body></timedtext>`,
 * times in milliseconds.
 *
 * Classic (srv1, no `fmt`): `<?xml version="1.0" encoding="utf-8" ?><transcript><text start="0.08"
 * dur="4.04">hey guys I&amp;#39;m</text>...</transcript>`, times in seconds; its text is HTML-escaped
 * and then XML-escaped again, so it is decoded twice.
 */
import { elements } from "./elements";
import { CaptionParseError, type Cue, type TimedPiece, attributes, cleanText, cueAt, finite, timedWords } from "./text";

/**
 * Word times of one srv3 `<p>`: each `<s>` at the paragraph's `t` plus its own `t` (0 when
 * absent, as for the first word); a paragraph without `<s>` is one piece at its own time.
 */
function srv3Pieces(startMs: number, inner: string): TimedPiece[] {
  const pieces: TimedPiece[] = [];
  for (const s of elements(inner, /<s\b/gi, /<\/s>/gi))
    pieces.push({ ms: startMs + Math.max(0, finite(attributes(s.attrs).t) ?? 0), raw: s.inner ?? "" });
  return pieces.length > 0 ? pieces : [{ ms: startMs, raw: inner }];
}

export function parseSrv3(body: string): Cue[] {
  if (!/<timedtext\b/i.test(body)) throw new CaptionParseError("The srv3 caption track has no <timedtext> element.");
  const bodyStart = body.search(/<body\b/i);
  const scope = bodyStart === -1 ? body : body.slice(bodyStart);
  const out: Cue[] = [];
  for (const p of elements(scope, /<p\b/gi, /<\/p>/gi)) {
    const attrs = attributes(p.attrs);
    const start = finite(attrs.t);
    if (start === null) continue;
    const end = start + Math.max(0, finite(attrs.d) ?? 0);
    const inner = p.inner ?? "";
    const words = timedWords(srv3Pieces(start, inner), end, { xml: true });
    out.push(cueAt(start, end, cleanText(inner, { xml: true }), attrs.a === "1", words));
  }
  return out;
}

export function parseTranscriptXml(body: string): Cue[] {
  if (!/<transcript\b/i.test(body)) throw new CaptionParseError("The caption track has no <transcript> element.");
  const out: Cue[] = [];
  for (const text of elements(body, /<text\b/gi, /<\/text>/gi)) {
    const attrs = attributes(text.attrs);
    const start = finite(attrs.start);
    if (start === null) continue;
    const startMs = start * 1000;
    out.push(
      cueAt(startMs, startMs + Math.max(0, finite(attrs.dur) ?? 0) * 1000, cleanText(text.inner ?? "", { xml: true })),
    );
  }
  return out;
}
