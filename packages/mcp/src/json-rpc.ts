import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';

/** JSON-RPC 2.0's error codes Quarry answers with. */
export const JSON_RPC_ERRORS = {
  /** The body or line is not JSON. */
  parse: -32700,
  /** JSON, but not a request taken here (no JSON-RPC message, a batch). */
  invalidRequest: -32600,
  /** A request whose params the method cannot take. */
  invalidParams: -32602,
} as const;

/** A JSON-RPC 2.0 error response; `id` null when the request's id is unknown. */
export function jsonRpcError(id: RequestId | null, code: number, message: string): JSONRPCMessage {
  return { jsonrpc: '2.0', id, error: { code, message } } as JSONRPCMessage;
}
