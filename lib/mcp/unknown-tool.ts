import { ErrorCode, isJSONRPCRequest, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";

/**
 * MCP 2025-11-25 (tools, error handling): a call to an unknown tool is a JSON-RPC error, -32602 (Invalid
 * params), not a tool result. The SDK's McpServer turns every error inside its tools/call handler (this one
 * included) into a result with `isError`, so such calls are answered here, between the transport and the
 * server: the transport's public `onmessage` hook, installed by `server.connect`, is wrapped. Call after
 * connecting.
 */
export function answerUnknownToolCalls(transport: Transport, known: ReadonlySet<string>): void {
  const deliver = transport.onmessage;
  if (!deliver) throw new Error("answerUnknownToolCalls: connect the server to the transport first");
  transport.onmessage = (message: JSONRPCMessage, extra) => {
    if (isJSONRPCRequest(message) && message.method === "tools/call") {
      const name = (message.params as { name?: unknown } | undefined)?.name;
      if (typeof name === "string" && !known.has(name)) {
        void transport.send({
          jsonrpc: "2.0",
          id: message.id,
          error: {
            code: ErrorCode.InvalidParams,
            message: `Unknown tool: ${name.slice(0, 100)}. Call tools/list for the tools there are.`,
          },
        });
        return;
      }
    }
    deliver(message, extra);
  };
}
