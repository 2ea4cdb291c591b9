import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { errorCode, errorMessage } from "@/lib/browser/api";
import { uploadContentType } from "@/lib/browser/uploads";
import { USER_AGENT, unreachable, type Schemas } from "./api";
import type { Context } from "./context";
import { CliError, exitCodeFor } from "./errors";
import { httpRequest } from "./http";
import { createProgress } from "./progress";

/**
 * A local file to the server: sign an upload (POST /v1/uploads/sign), then PUT the bytes to the signed URL
 * with a progress bar. The PUT is not an API call (the URL may be object storage's) and needs upload
 * progress, which fetch lacks: it goes over node:http (./http.ts).
 */
export async function uploadFile(ctx: Context, file: string): Promise<Schemas["SignedUpload"]> {
  const size = (await stat(file)).size;
  const name = path.basename(file);
  const contentType = uploadContentType({ name, type: "" });
  const refusal = refusalFromHealth(name, await ctx.api.ok(ctx.api.anonymous.GET("/health")).catch(() => null));
  if (refusal) throw refusal;
  const signed = await ctx.api.ok(
    ctx.api.client.POST("/v1/uploads/sign", { body: { filename: name, content_type: contentType } }),
  );
  const progress = createProgress(ctx.out, `Uploading ${name}`, size, "bytes");
  progress.update(0, `${(size / 1e6).toFixed(1)} MB`);
  try {
    await put(signed.upload_url, file, size, contentType, (sent) =>
      progress.update(sent, sent === size ? "sent" : `${(size / 1e6).toFixed(1)} MB`),
    );
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw unreachable(new URL(signed.upload_url).origin, error);
  } finally {
    progress.stop();
  }
  return signed;
}

/**
 * A server that says in /health it cannot transcribe files now: the refusal, before any bytes are sent (an older
 * server that does not say is asked anyway, and answers 503 after the upload). /health says what works there
 * (`files`), never why: the why is its operator's (`npm run doctor` there).
 */
export function refusalFromHealth(name: string, health: Record<string, string> | null): CliError | null {
  if (health?.speech_recognition === "off")
    return new CliError(
      `${name}: this server cannot transcribe files: speech recognition is off there (its operator turns it on with ASR_PROVIDER, ASSEMBLYAI_API_KEY or ASR_OPENAI_BASE_URL). Nothing was uploaded.`,
      exitCodeFor(503, "asr_not_configured"),
      "asr_not_configured",
    );
  if (health?.files === "unavailable")
    return new CliError(
      `${name}: files cannot be transcribed on this server right now (its operator's \`npm run doctor\` says why). Nothing was uploaded.`,
      exitCodeFor(503, "asr_model_missing"),
      "asr_model_missing",
    );
  // A server from before `files`, whose /health named its failing checks: the speech model missing there.
  if (health?.setup_failing?.split(",").includes("speech_model"))
    return new CliError(
      `${name}: this server cannot transcribe files right now: its speech model is missing and cannot be downloaded (its operator places the model and sets ASR_LOCAL_MODEL_PATH; \`npm run doctor\` on the server says more). Nothing was uploaded.`,
      exitCodeFor(503, "asr_model_missing"),
      "asr_model_missing",
    );
  return null;
}

async function put(
  url: string,
  file: string,
  size: number,
  contentType: string,
  onSent: (bytes: number) => void,
): Promise<void> {
  let sent = 0;
  const stream = createReadStream(file);
  stream.on("data", (chunk) => {
    sent += chunk.length;
    onSent(sent);
  });
  const answer = await httpRequest(new URL(url), {
    method: "PUT",
    headers: { "content-type": contentType, "content-length": size, "user-agent": USER_AGENT },
    body: stream,
  });
  if (answer.ok) return;
  const body = parseJson(answer.text);
  const code = errorCode(body);
  throw new CliError(`Upload failed: ${errorMessage(answer.status, body)}`, exitCodeFor(answer.status, code), code);
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}
