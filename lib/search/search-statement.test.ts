import { describe, expect, it } from "vitest";
import { searchPlannerSettings, settingsStatement } from "@/lib/search/planner-settings";
import {
  MARK_END,
  MARK_START,
  matchCondition,
  searchStatement,
  type SearchStatementInput,
} from "@/lib/search/search-statement";

const readings = [
  { query: "'ocean'", configs: ["english", "german"] },
  { query: "'oce'", configs: ["simple"] },
];

const input = (overrides: Partial<SearchStatementInput>): SearchStatementInput => ({
  scope: { kind: "public" },
  readings,
  limit: 11,
  offset: 20,
  perTranscript: 3,
  candidates: 1050,
  inOrder: false,
  lexemes: null,
  corrects: false,
  ...overrides,
});

/** The statement's text on one line, spaces collapsed, for matching fragments. */
const flat = (text: string) => text.replace(/\s+/g, " ");

describe("matchCondition", () => {
  it("gives each reading one branch, its configurations written in and its tsquery a parameter", () => {
    const { matches, params } = matchCondition(readings);

    expect(matches).toBe(
      `(p."config" IN ('english', 'german') AND p."tsv" @@ $1::tsquery) OR (p."config" IN ('simple') AND p."tsv" @@ $2::tsquery)`,
    );
    expect(params).toEqual(["'ocean'", "'oce'"]);
  });
});

describe("searchStatement", () => {
  it("public: live publications' passages, then the page's bounds, in a fixed order of parameters", () => {
    const { text, params } = searchStatement(input({}));

    expect(params).toEqual([
      "'ocean'",
      "'oce'",
      11,
      20,
      3,
      `HighlightAll=true, StartSel=${MARK_START}, StopSel=${MARK_END}`,
      1050,
    ]);
    const sql = flat(text);
    expect(sql).toContain(
      `FROM "SearchPassage" p WHERE ((p."config" IN ('english', 'german') AND p."tsv" @@ $1::tsquery) OR (p."config" IN ('simple') AND p."tsv" @@ $2::tsquery)) AND EXISTS (SELECT 1 FROM "Publication" pub`,
    );
    expect(sql).toContain(
      `ts_rank_cd(p."tsv", CASE WHEN p."config" IN ('english', 'german') THEN $1::tsquery WHEN p."config" IN ('simple') THEN $2::tsquery END) AS rank`,
    );
    expect(sql).toContain(`LIMIT $7 ), capped AS`);
    expect(sql).toContain(
      `WHERE nth <= $5 ORDER BY rank DESC, "transcriptId", "seq", "revisionId" LIMIT $3 OFFSET $4 )`,
    );
    expect(sql).toContain(
      `ts_headline(page."config"::regconfig, array_to_string(seg.texts, ' '), CASE WHEN page."config"`,
    );
    expect(sql).toContain(`$6) AS marked`);
    expect(sql).toContain(`AND (page."editorId" IS NULL OR pub."userId" = page."editorId")`);
    expect(sql).not.toContain(`"Transcription"`);
    expect(sql).not.toContain("OFFSET 0");
  });

  it("public, read in table order: the visibility check is kept a lookup per candidate (OFFSET 0)", () => {
    const sql = flat(searchStatement(input({ inOrder: true })).text);

    expect(sql).toContain(`ELSE pub."userId" = p."editorId" END) OFFSET 0)`);
  });

  it("platform and language filters join the transcript, each value a parameter after the readings'", () => {
    const { text, params } = searchStatement(input({ platform: "youtube", lang: "en-GB" }));

    expect(flat(text)).toContain(
      `FROM "SearchPassage" p JOIN "Transcript" t ON t."id" = p."transcriptId" AND t."platform" = $3 AND lower(t."lang") = lower($4) WHERE`,
    );
    expect(params.slice(0, 4)).toEqual(["'ocean'", "'oce'", "youtube", "en-GB"]);
    expect(params).toHaveLength(9);
  });

  it("library without corrections: the caller's done entries holding the words, then their transcripts' passages", () => {
    const { text, params } = searchStatement(
      input({ scope: { kind: "library", userId: "user-1" }, lexemes: "'k ocean'", corrects: false }),
    );

    expect(params).toEqual(["'ocean'", "'oce'", "user-1", "'k ocean'", 11, 20, 3, expect.any(String), 1050]);
    const sql = flat(text);
    expect(sql).toContain(
      `FROM "Transcription" h CROSS JOIN LATERAL ( SELECT p.*, NULL::text AS "editorId", NULL::text AS "revisionId" FROM "TranscriptPassage" p WHERE p."transcriptId" = h."transcriptId" AND (`,
    );
    expect(sql).toContain(
      `OFFSET 0 ) AS p WHERE h."lexemes" @@ $4::tsquery AND (h."userId" || '') = $3 AND h."state" = 'done'`,
    );
    expect(sql).toContain(`pub."userId" = $3 AND pub."publishedAt" IS NOT NULL LIMIT 1) AS slug`);
    expect(sql).not.toContain(`FROM "SearchPassage"`);
  });

  it("library with corrections: the caller's correction's passages instead of the transcript's", () => {
    const sql = flat(
      searchStatement(input({ scope: { kind: "library", userId: "user-1" }, lexemes: "'k ocean'", corrects: true }))
        .text,
    );

    expect(sql).toContain(`SELECT p.* FROM "SearchPassage" p WHERE p."transcriptId" = h."transcriptId"`);
    expect(sql).toContain(
      `AND (CASE WHEN p."editorId" IS NULL THEN NOT EXISTS (SELECT 1 FROM "TranscriptRevision" r WHERE r."userId" = $3 AND r."transcriptId" = p."transcriptId") ELSE p."editorId" = $3 END)`,
    );
  });
});

describe("searchPlannerSettings", () => {
  it("runs serially, without JIT or synchronized scans, under the timeout; no bitmap when reading in order", () => {
    expect(searchPlannerSettings({ timeoutMs: 4000, inOrder: false })).toEqual({
      statement_timeout: "4000",
      max_parallel_workers_per_gather: "0",
      jit: "off",
      synchronize_seqscans: "off",
      enable_bitmapscan: "on",
    });
    expect(searchPlannerSettings({ timeoutMs: 4000, inOrder: true }).enable_bitmapscan).toBe("off");
  });

  it("is set for the transaction only, each value a parameter", () => {
    expect(settingsStatement(searchPlannerSettings({ timeoutMs: 2500, inOrder: true }))).toEqual({
      text:
        "SELECT set_config('statement_timeout', $1, true), set_config('max_parallel_workers_per_gather', $2, true), " +
        "set_config('jit', $3, true), set_config('synchronize_seqscans', $4, true), set_config('enable_bitmapscan', $5, true)",
      params: ["2500", "0", "off", "off", "off"],
    });
  });
});
