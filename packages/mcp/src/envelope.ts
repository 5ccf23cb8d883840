import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  InitializeRequestParamsSchema,
  type JSONRPCMessage,
  LATEST_PROTOCOL_VERSION,
} from '@modelcontextprotocol/sdk/types.js';
import { JSON_RPC_ERRORS, jsonRpcError } from './json-rpc.js';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What is wrong with a request's envelope, in one sentence, or null when nothing is: an
 * `initialize` gives its protocol version, capabilities and client, a `tools/call` names its tool
 * and passes its arguments as an object. (The SDK answers a request without them with `-32603`, an
 * internal error, and zod's issue list as the message; params that are no object at all the
 * transports refuse themselves.)
 */
export function envelopeProblem(method: string, params: unknown): string | null {
  if (method === 'initialize') return initializeProblem(params);
  if (method !== 'tools/call') return null;
  if (!isPlainObject(params) || typeof params.name !== 'string' || params.name === '') {
    return 'tools/call needs params.name, the name of a tool (see tools/list)';
  }
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) {
    return `params.arguments of ${params.name} must be an object of its arguments by name`;
  }
  return null;
}

/** What is missing or wrong in `initialize`'s params, or null. */
function initializeProblem(params: unknown): string | null {
  const parsed = InitializeRequestParamsSchema.safeParse(params);
  if (parsed.success) return null;
  const wrong = [...new Set(parsed.error.issues.map((issue) => ['params', ...issue.path.slice(0, 1)].join('.')))];
  return (
    `initialize needs params with protocolVersion (a string such as "${LATEST_PROTOCOL_VERSION}"), capabilities ` +
    `(an object) and clientInfo (an object with name and version); ${wrong.join(', ')} ` +
    `${wrong.length > 1 ? 'are' : 'is'} missing or not of that type`
  );
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
