import { z } from 'zod';

/**
 * Tool arguments that say what is wrong in the REST API's words (`limit must be an integer from 1
 * to 100`) rather than zod's (`Invalid input: expected int, received number`). The SDK adds where
 * (`at limit`) to the message.
 */
export function intArg(name: string, min: number, max: number) {
  const error = `${name} must be an integer from ${min} to ${max}`;
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
}

/** A required or optional non-empty string of at most `max` characters. */
export function textArg(name: string, max: number) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? `${name} is required` : `${name} must be a string`) })
    .min(1, { error: `${name} must not be empty` })
    .max(max, { error: `${name} must be at most ${max} characters` });
}

/** One of `values`. */
export function enumArg<const T extends readonly [string, ...string[]]>(name: string, values: T) {
  return z.enum(values, { error: `${name} must be one of ${values.join(', ')}` });
}

/**
 * A tool's arguments, `shape`, and no others: an argument a client misspelled (`max_token`,
 * `limt`) is a tool error naming it and the tool's arguments, not silently dropped (the SDK's
 * default for a shape), which answered as if it had not been asked. The input schema the tool
 * lists says so too (`additionalProperties: false`).
 */
export function toolArgs<const T extends z.ZodRawShape>(shape: T) {
  const known = Object.keys(shape).join(', ');
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown argument${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}: this tool takes ${known}`
        : undefined,
  });
}
