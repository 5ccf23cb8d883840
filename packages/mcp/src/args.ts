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
