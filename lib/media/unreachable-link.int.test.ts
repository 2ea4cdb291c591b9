import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startImportWorld, type ImportWorld } from "@/test/imports";
import { callRoute } from "@/test/request";

// A direct audio link whose host refuses the connection, through the real pipeline (local runner, real
// PostgreSQL): the job ends at once with upstream_refused and a sentence about that link's host, not the
// generic "could not be downloaded" after retries.

let world: ImportWorld;
let routes: {
  transcribe: typeof import("@/app/v1/transcript/route").POST;
  job: typeof import("@/app/v1/jobs/[job_id]/route").GET;
};

beforeAll(async () => {
  world = await startImportWorld("unreachable-link");
  routes = {
    transcribe: (await import("@/app/v1/transcript/route")).POST,
    job: (await import("@/app/v1/jobs/[job_id]/route")).GET,
  };
});
afterAll(async () => {
  await world?.close();
});

/** A port where nothing listens (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("a direct audio link that cannot be reached", () => {
  it("refused: the job fails at once with upstream_refused, naming the link's host", async () => {
    const { headers } = await world.caller();
    const res = await callRoute(routes.transcribe, "/v1/transcript", {
      headers,
      body: { audio: `http://127.0.0.1:${await closedPort()}/episode-12.mp3` },
    });
    expect(res.status).toBe(202);
    const jobId = (res.json as { job_id: string }).job_id;
    let job: { status: string; error: { code: string; message: string } | null } | undefined;
    for (let i = 0; i < 600 && job?.status !== "error" && job?.status !== "done"; i++) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, 100));
      const answer = await callRoute(routes.job, `/v1/jobs/${jobId}`, { headers, params: { job_id: jobId } });
      job = answer.json as typeof job;
    }
    expect(job?.status).toBe("error");
    expect(job?.error?.code).toBe("upstream_refused");
    expect(job?.error?.message).toMatch(/^127\.0\.0\.1 refused the connection: .*check the link/);
    // Not retried: one attempt of the download step.
    const row = await world.ctx.db.job.findUniqueOrThrow({ where: { id: jobId } });
    expect(row).toMatchObject({ status: "error" });
    expect(row.attempts).toBe(1);
  });
});
