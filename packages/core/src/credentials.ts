/** A response whose per-request locals a middleware may mark (Express's `res`, structurally). */
export interface WithLocals {
  readonly locals: Record<string, unknown>;
}

const CREDENTIAL_ACCEPTED = 'quarryCredentialAccepted';

/**
 * Marks a request whose credential was right (the admin token, or a valid key): a count of failed
 * logins or token guesses leaves it out, whatever it ends with (a 400 for a bad parameter).
 */
export function acceptCredential(res: WithLocals): void {
  res.locals[CREDENTIAL_ACCEPTED] = true;
}

/** Whether {@link acceptCredential} marked the request. */
export function credentialAccepted(res: WithLocals): boolean {
  return res.locals[CREDENTIAL_ACCEPTED] === true;
}
