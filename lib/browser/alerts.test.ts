import { describe, expect, it } from "vitest";
import { previewSentence, scopeLabel, scopeRequest, type AlertScopeChoices } from "@/lib/browser/alerts";

const choices: AlertScopeChoices = {
  library: { kind: "person", name: null },
  teams: [{ id: "team1", name: "Crew" }],
  follows: [
    { id: "f1", title: "Harbour radio" },
    { id: "f2", title: "Tide tables" },
  ],
  ownOverTeam: [],
};

describe("the alert form's scope", () => {
  it("turns each choice into the request's scope", () => {
    expect(scopeRequest("library", ["f1"])).toEqual({ kind: "library" });
    expect(scopeRequest("public", [])).toEqual({ kind: "public" });
    expect(scopeRequest("team:team1", ["f1"])).toEqual({ kind: "team", team_id: "team1" });
    expect(scopeRequest("follows", ["f1", "f2"])).toEqual({ kind: "follows", follow_ids: ["f1", "f2"] });
  });

  it("names a saved alert's scope in the list", () => {
    const scope = { team_id: null, follow_ids: [] };
    expect(scopeLabel({ ...scope, kind: "library" }, choices)).toBe("Library");
    expect(scopeLabel({ ...scope, kind: "library" }, { ...choices, library: { kind: "team", name: "Crew" } })).toBe(
      "Team library",
    );
    expect(scopeLabel({ ...scope, kind: "team", team_id: "team1" }, choices)).toBe("Crew's library");
    expect(scopeLabel({ ...scope, kind: "team", team_id: "left" }, choices)).toBe("A team's library");
    expect(scopeLabel({ ...scope, kind: "follows", follow_ids: ["f1"] }, choices)).toBe("Episodes of 1 show");
    expect(scopeLabel({ ...scope, kind: "follows", follow_ids: ["f1", "f2"] }, choices)).toBe("Episodes of 2 shows");
    expect(scopeLabel({ ...scope, kind: "public" }, choices)).toBe("Published transcripts");
  });
});

describe("the alert form's preview", () => {
  it("says how many of the last 30 days' transcripts it would have matched", () => {
    expect(previewSentence({ matched: 2, transcripts: 17 })).toBe(
      "It would have matched 2 of the 17 transcripts that came in over the last 30 days.",
    );
    expect(previewSentence({ matched: 0, transcripts: 1 })).toBe(
      "It would have matched 0 of the 1 transcript that came in over the last 30 days.",
    );
    expect(previewSentence({ matched: 0, transcripts: 0 })).toMatch(/^No transcript came into this scope/);
  });
});
