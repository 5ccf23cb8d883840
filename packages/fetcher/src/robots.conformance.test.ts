import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { robotsAllows } from './robots.js';

const CASES = new URL('../../../../shared/testdata/robots/google-robotstxt-cases.json', import.meta.url).pathname;

interface MatcherCase {
  id: string;
  robots_txt: string;
  user_agent: string;
  url: string;
  expected_allowed: boolean;
  google_specific: boolean;
  ambiguous: boolean;
}

interface CaseFile {
  matcher_cases: MatcherCase[];
  sitemap_cases: { robots_txt: string; expected_sitemaps: string[] }[];
}

const haveCases = existsSync(CASES);
if (!haveCases) console.warn(`skipping robots.txt conformance: ${CASES} is absent`);
const d = haveCases ? describe : describe.skip;

d('robots.txt conformance with google/robotstxt cases', () => {
  const file = haveCases
    ? (JSON.parse(readFileSync(CASES, 'utf8')) as CaseFile)
    : { matcher_cases: [], sitemap_cases: [] };
  const core = file.matcher_cases.filter((c) => !c.google_specific && !c.ambiguous);
  const rest = file.matcher_cases.filter((c) => c.google_specific || c.ambiguous);

  it.each(core.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    expect(robotsAllows(c.robots_txt, c.user_agent, c.url)).toBe(c.expected_allowed);
  });

  it('reports its score on the Google-specific and ambiguous cases', () => {
    const failed = rest.filter((c) => robotsAllows(c.robots_txt, c.user_agent, c.url) !== c.expected_allowed);
    const passed = rest.length - failed.length;
    const total = file.matcher_cases.length;
    const allPassed = core.length + passed;
    console.log(
      `robots.txt conformance: ${core.length}/${core.length} RFC cases; ` +
        `${passed}/${rest.length} google_specific/ambiguous cases; ${allPassed}/${total} overall. ` +
        `Differing: ${failed.map((c) => c.id).join(', ') || 'none'}`,
    );
    expect(rest.length).toBeGreaterThan(0);
  });
});
