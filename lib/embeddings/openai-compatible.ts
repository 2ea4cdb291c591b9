// A stronger embedder as a setting: any server that answers OpenAI's `POST /v1/embeddings` (OpenAI, Ollama,
// llama.cpp's server, vLLM): `{ model, input: [texts] }` → `{ data: [{ index, embedding: [numbers] }] }`. The base URL
// is the operator's (as the speech recogniser's), with or without its `/v1`. Each vector is made unit length here.
import { EmbedderUnavailable } from "./default-model";

export interface RemoteEmbedderOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs?: number;
}

/** Texts sent in one request. */
export const REMOTE_BATCH = 64;

export async function embedRemote(options: RemoteEmbedderOptions, texts: string[]): Promise<(Float32Array | null)[]> {
  const out: (Float32Array | null)[] = [];
  for (let at = 0; at < texts.length; at += REMOTE_BATCH)
    out.push(...(await embedBatch(options, texts.slice(at, at + REMOTE_BATCH))));
  return out;
}

async function embedBatch(options: RemoteEmbedderOptions, texts: string[]): Promise<(Float32Array | null)[]> {
  const endpoint = `${options.baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "")}/v1/embeddings`;
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  // A text with nothing to embed is not sent (the API refuses empty input).
  const sent = texts.flatMap((text, i) => (text.trim() === "" ? [] : [i]));
  if (sent.length === 0) return texts.map(() => null);
  let response: Response;
  try {
    response = await fetch(endpoint, {
      method: "POST",
      headers,
      body: JSON.stringify({ model: options.model, input: sent.map((i) => texts[i]), encoding_format: "float" }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
    });
  } catch (error) {
    throw new EmbedderUnavailable(`embedding server ${endpoint} unreachable: ${(error as Error).message}`);
  }
  const body = await response.text().catch(() => "");
  if (!response.ok)
    throw new EmbedderUnavailable(`embedding server ${endpoint} answered ${response.status}: ${body.slice(0, 200)}`);
  let data: { index: number; embedding: number[] }[];
  try {
    data = (JSON.parse(body) as { data: { index: number; embedding: number[] }[] }).data;
    if (!Array.isArray(data)) throw new Error("no data");
  } catch {
    throw new EmbedderUnavailable(`embedding server ${endpoint} answered something other than embeddings`);
  }
  const out: (Float32Array | null)[] = texts.map(() => null);
  for (const { index, embedding } of data) {
    const at = sent[index];
    if (at === undefined || !Array.isArray(embedding) || embedding.length === 0) continue;
    let norm = 0;
    for (const x of embedding) norm += x * x;
    norm = Math.sqrt(norm);
    if (!Number.isFinite(norm) || norm === 0) continue;
    out[at] = Float32Array.from(embedding, (x) => x / norm);
  }
  return out;
}
