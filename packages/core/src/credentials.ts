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

const GUESSES_SPENT = 'quarryGuessesSpentAnswer';

/**
 * Has the limiter of admin-token guesses, should it refuse this request, answer with `answer`
 * instead of its 429 problem (it has set `Retry-After`): the login form answers with its page. One
 * limiter counts the guesses of every route taking the admin token, so that one lockout covers them
 * all; this lets each route keep its own way of saying so.
 */
export function answerSpentGuesses(res: WithLocals, answer: () => void): void {
  res.locals[GUESSES_SPENT] = answer;
}

/** The answer {@link answerSpentGuesses} set for the request, if any. */
export function spentGuessesAnswer(res: WithLocals): (() => void) | undefined {
  const answer = res.locals[GUESSES_SPENT];
  return typeof answer === 'function' ? (answer as () => void) : undefined;
}
