import { Api } from "./api";
import { resolveBaseUrl } from "./config";
import { createOutput, type Output } from "./output";

export interface Context {
  api: Api;
  out: Output;
}

/** What every command's action gets: the server and credential to use, and where to write. */
export async function createContext(options: { json?: boolean; baseUrl?: string }): Promise<Context> {
  const out = createOutput({ json: Boolean(options.json) });
  const api = await Api.connect(await resolveBaseUrl(options.baseUrl));
  return { api, out };
}
