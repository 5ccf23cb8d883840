import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { BackendUnavailableError, QuarryError } from '@quarry/core';

/** A tool failure a model can act on: `isError: true` with one readable sentence. */
export function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** A successful tool answer: the readable text and the same data as `structuredContent`. */
export function toolResult(text: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/** Called with errors that are not the caller's fault, for the server log. */
export type ErrorReporter = (err: unknown, tool: string) => void;

/**
 * Runs a tool body, turning failures into tool errors: a 4xx `QuarryError` (bad argument, unknown
 * id) keeps its message; an unavailable backend or any other error says so without internals.
 */
export async function guarded(
  tool: string,
  onError: ErrorReporter,
  body: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  try {
    return await body();
  } catch (err) {
    if (err instanceof BackendUnavailableError) {
      onError(err, tool);
      return toolError('Quarry is temporarily unavailable (a backend is down); try again in a few seconds.');
    }
    if (err instanceof QuarryError && err.httpStatus >= 400 && err.httpStatus < 500) return toolError(err.message);
    onError(err, tool);
    return toolError(`The ${tool} tool failed with an internal error; the server log has the details.`);
  }
}
