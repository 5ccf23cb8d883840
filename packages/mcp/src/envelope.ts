import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { JSON_RPC_ERRORS, jsonRpcError } from './json-rpc.js';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What is wrong with a request's envelope, in one sentence, or null when nothing is: a `tools/call`
 * names its tool and passes its arguments as an object. (The SDK answers a call without them with
 * `-32603`, an internal error, and zod's issue list as the message; params that are no object at
 * all the transports refuse themselves.)
 */
export function envelopeProblem(method: string, params: unknown): string | null {
  if (method !== 'tools/call') return null;
  if (!isPlainObject(params) || typeof params.name !== 'string' || params.name === '') {
    return 'tools/call needs params.name, the name of a tool (see tools/list)';
  }
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) {
    return `params.arguments of ${params.name} must be an object of its arguments by name`;
  }
  return null;
}

/** The `-32602` error answering a request whose envelope is malformed, else null. */
export function malformedRequestReply(message: JSONRPCMessage): JSONRPCMessage | null {
  if (!('method' in message) || !('id' in message)) return null;
  const problem = envelopeProblem(message.method, (message as { params?: unknown }).params);
  if (problem === null) return null;
  return jsonRpcError(message.id, JSON_RPC_ERRORS.invalidParams, `Invalid params: ${problem}.`);
}

/**
 * Makes a connected transport answer malformed requests itself (see {@link malformedRequestReply})
 * instead of handing them to the protocol. Call it after the server's `connect`, which sets the
 * handler this wraps.
 */
export function answerMalformedRequests(transport: Transport): void {
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const reply = malformedRequestReply(message);
    if (reply === null) return deliver?.(message, extra);
    transport.send(reply).catch((err: unknown) => transport.onerror?.(err as Error));
  };
}
