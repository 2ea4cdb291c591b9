import { describe, expect, it } from "vitest";
import { driftMigrationSql, inCreationOrder, type SqlDefinitionFile } from "@/lib/db/sql-definitions";

const file = (kind: SqlDefinitionFile["kind"], name: string, sql: string): SqlDefinitionFile => ({
  kind,
  name,
  file: `${kind}/${name}.sql`,
  sql,
});

describe("inCreationOrder", () => {
  it("puts functions before views before triggers, and a function after the functions it calls", () => {
    const files = [
      file("triggers", "A_trigger", "CREATE OR REPLACE TRIGGER ... EXECUTE FUNCTION f_row();"),
      file("views", "V", "CREATE OR REPLACE VIEW v AS SELECT f_outer();"),
      file("functions", "f_outer", "... SELECT f_inner_part(1) ..."),
      file("functions", "f_row", "... PERFORM f_outer(); ..."),
      file("functions", "f_inner_part", "... SELECT 1 ..."),
    ];

    expect(inCreationOrder(files).map((f) => f.name)).toEqual(["f_inner_part", "f_outer", "f_row", "V", "A_trigger"]);
  });

  it("matches whole names only, and keeps name order through a cycle", () => {
    const files = [
      file("functions", "b", "SELECT a()"),
      file("functions", "a", "SELECT b()"),
      file("functions", "c", "SELECT abc()"),
    ];

    expect(inCreationOrder(files).map((f) => f.name)).toEqual(["b", "a", "c"]);
  });
});

describe("driftMigrationSql", () => {
  it("drops triggers before views before functions, then runs the files in creation order", () => {
    const sql = driftMigrationSql({
      changed: [file("triggers", "T", "CREATE OR REPLACE TRIGGER t;\n")],
      added: [file("functions", "f", "CREATE OR REPLACE FUNCTION f();\n")],
      removed: [
        { kind: "functions", name: "g", definition: "", drop: "DROP FUNCTION IF EXISTS g()" },
        { kind: "triggers", name: "U", definition: "", drop: 'DROP TRIGGER IF EXISTS "U" ON "X"' },
      ],
    });

    expect(sql).toBe(
      [
        'DROP TRIGGER IF EXISTS "U" ON "X";',
        "DROP FUNCTION IF EXISTS g();",
        "-- prisma/sql/functions/f.sql\nCREATE OR REPLACE FUNCTION f();",
        "-- prisma/sql/triggers/T.sql\nCREATE OR REPLACE TRIGGER t;",
      ].join("\n\n") + "\n",
    );
  });
});
