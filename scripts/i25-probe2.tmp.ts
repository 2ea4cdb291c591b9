import pg from "pg";
import { createMigratedTestDatabase } from "../test/pg";
import { gritSegments } from "../test/publishing";
import { startApp } from "./bench/server";
const db = await createMigratedTestDatabase();
const c = new pg.Client({ connectionString: db.url }); await c.connect();
await c.query(`INSERT INTO "User" ("id","email","updatedAt") VALUES ('u','u@example.test',now())`);
await c.query(`INSERT INTO "Transcript" ("id","platform","videoId","lang","source","title","sourceUrl","segments") VALUES ('t','youtube','H14bBuluwB8','en','captions','Grit','https://www.youtube.com/watch?v=H14bBuluwB8',$1)`, [JSON.stringify(gritSegments())]);
await c.query(`INSERT INTO "Publication" ("id","slug","userId","transcriptId","publishedAt","updatedAt") VALUES ('p','grit-abc123','u','t',now(),now())`);
const app = await startApp(3322, { DATABASE_URL: db.url, AUTH_SECRET: "bench-secret-bench-secret-bench-secret" });
try {
  const paths = ["/health", "/t/grit-abc123", "/icon.svg", "/sitemap.xml", "/v1/public/grit-abc123", "/docs"];
  for (const p of paths) { const r = await fetch(app.baseUrl + p); const b = await r.arrayBuffer(); console.log(p, r.status, b.byteLength); }
  for (let round = 0; round < 2; round++) for (const p of paths) {
    const times: number[] = [];
    for (let i = 0; i < 150; i++) { const s = performance.now(); await (await fetch(app.baseUrl + p)).arrayBuffer(); times.push(performance.now() - s); }
    times.sort((a, b) => a - b);
    console.log(round, p, "median ms", times[75].toFixed(2));
  }
} finally { await app.stop(); await c.end(); await db.drop(); }
