import { type JSONRPCMessage, JSONRPCMessageSchema, type RequestId } from '@modelcontextprotocol/sdk/types.js';

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

/** What a JSON-RPC message must be, for the `-32600` answering one that is not. */
const MESSAGE_SHAPE =
  '"jsonrpc": "2.0", a method, an id that is a string or a number (none in a notification) and params, ' +
  'if any, that are an object';

/**
 * The `-32600` error answering `value` (the body of a POST, a line on stdio: `where`) when it is
 * JSON but no JSON-RPC 2.0 message MCP takes (`{"foo":1}`, an id that is null or an object, params
 * that are a string); null when it is one. A batch is no message either: refuse it first.
 */
export function invalidMessageReply(value: unknown, where: 'body' | 'line'): JSONRPCMessage | null {
  if (JSONRPCMessageSchema.safeParse(value).success) return null;
  return notAMessage(where);
}

/** The `-32600` error for a `where` that is JSON but no JSON-RPC message (its id unknown: null). */
export function notAMessage(where: 'body' | 'line'): JSONRPCMessage {
  const message = `Invalid Request: the ${where} is JSON but not a JSON-RPC 2.0 message, which has ${MESSAGE_SHAPE}.`;
  return jsonRpcError(null, JSON_RPC_ERRORS.invalidRequest, message);
}
