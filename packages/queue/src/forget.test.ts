import { describe, expect, it } from '@jest/globals';
import { checkForgetSites, checkSites } from './forget.js';

describe('checkForgetSites', () => {
  // `*.com` was read as `com` and forgot every .com site, with no word of warning.
  it('refuses a public suffix, however it is written, naming what was given', () => {
    for (const given of ['com', '*.com', 'COM.', 'https://com/', 'co.uk', '*.co.uk', 'com:8080', 'рф', 'k12.ak.us']) {
      expect(() => checkForgetSites([given])).toThrow(TypeError);
      expect(() => checkForgetSites(['example.org', given])).toThrow(
        `${JSON.stringify(given)} names ${checkSites([given])[0]?.replace(/:\d+$/, '')}, a public suffix`,
      );
    }
  });

  it('takes a site under one, a private suffix, a name of a network of its own and an address', () => {
    expect(
      checkForgetSites(['*.example.com', 'bbc.co.uk/news', 'github.io', 'intranet', 'localhost:8080', '10.0.0.1']),
    ).toEqual(['example.com', 'bbc.co.uk/news', 'github.io', 'intranet', 'localhost:8080', '10.0.0.1']);
  });

  it('leaves unforget free to name one: a site forgotten before the check came in may be undone', () => {
    expect(checkSites(['com'])).toEqual(['com']);
  });
});
