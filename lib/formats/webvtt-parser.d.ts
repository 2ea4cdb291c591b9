// Minimal types for the W3C WebVTT parser (w3c/webvtt.js, npm "webvtt-parser"), used by tests only.
declare module "webvtt-parser" {
  export interface WebVTTCue {
    id: string;
    startTime: number;
    endTime: number;
    text: string;
    tree: { children: Array<{ type: string; value?: string | number; name?: string }> };
  }
  export interface WebVTTParseError {
    message: string;
    line: number;
    col?: number;
  }
  export interface WebVTTParseResult {
    cues: WebVTTCue[];
    errors: WebVTTParseError[];
    time: number;
    styles: string[];
  }
  export class WebVTTParser {
    constructor(entities?: Record<string, string>);
    parse(input: string, mode?: "metadata" | "chapters"): WebVTTParseResult;
  }
  const parser: { WebVTTParser: typeof WebVTTParser };
  export default parser;
}
