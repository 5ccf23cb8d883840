import { describe, expect, it } from '@jest/globals';
import { findDatelineDate } from './dateline.js';

describe('findDatelineDate', () => {
  it('reads English datelines in their usual forms', () => {
    expect(findDatelineDate('By Jane Doe\nDecember 19, 2025', 0)).toBe('2025-12-19T00:00:00Z');
    expect(findDatelineDate('Published Sep. 4th 2025 · 5 min read', 0)).toBe('2025-09-04T00:00:00Z');
    expect(findDatelineDate('18th Dec 2025', 0)).toBe('2025-12-18T00:00:00Z');
    expect(findDatelineDate('On 8 Oct 2022', 0)).toBe('2022-10-08T00:00:00Z');
    expect(findDatelineDate('Updated 2024-03-01', 0)).toBe('2024-03-01T00:00:00Z');
    expect(findDatelineDate('Elliot Raba\n23.07.2025 · 6 min read', 0)).toBe('2025-07-23T00:00:00Z');
    expect(findDatelineDate('17.5.2021', 0)).toBe('2021-05-17T00:00:00Z');
  });

  it("reads a dateline with the month's name in the page's language, with ICU's names and order", () => {
    expect(findDatelineDate('Von Max Mustermann\n19. März 2025, 14:00 Uhr', 0, 'de')).toBe('2025-03-19T00:00:00Z');
    // An English article on a German site: the site's chrome writes its dates in German.
    expect(findDatelineDate('Von Max Mustermann\n19. März 2025', 0, 'en')).toBeNull();
    expect(findDatelineDate('Von Max Mustermann\n19. März 2025', 0, ['en', 'de'])).toBe('2025-03-19T00:00:00Z');
    expect(findDatelineDate('Publié le 1er mars 2024 à 10h', 0, 'fr')).toBe('2024-03-01T00:00:00Z');
    expect(findDatelineDate('Por Ana Pérez\n19 de diciembre de 2025', 0, 'es')).toBe('2025-12-19T00:00:00Z');
    expect(findDatelineDate('Pubblicato il 19 dic 2025', 0, 'it')).toBe('2025-12-19T00:00:00Z');
    expect(findDatelineDate('19 mrt. 2025', 0, 'nl')).toBe('2025-03-19T00:00:00Z');
    // Declined forms (the genitive a date uses) and scripts other than Latin.
    expect(findDatelineDate('19 декабря 2025 г.', 0, 'ru')).toBe('2025-12-19T00:00:00Z');
    expect(findDatelineDate('19 grudnia 2025', 0, 'pl')).toBe('2025-12-19T00:00:00Z');
    expect(findDatelineDate('19 Μαρτίου 2025', 0, 'el')).toBe('2025-03-19T00:00:00Z');
    // Year first: Hungarian, Korean.
    expect(findDatelineDate('2025. március 19.', 0, 'hu')).toBe('2025-03-19T00:00:00Z');
    expect(findDatelineDate('2025년 3월 19일 오후 2:00', 0, 'ko')).toBe('2025-03-19T00:00:00Z');
    // Another language's month names are not read (`mars` is March in French, not in German).
    expect(findDatelineDate('19 mars 2025', 0, 'de')).toBeNull();
    expect(findDatelineDate('19 März 2025', 0, 'en')).toBeNull();
    // A month and year alone is no day; a language ICU does not know reads as before.
    expect(findDatelineDate('März 2025', 0, 'de')).toBeNull();
    expect(findDatelineDate('19.03.2025', 0, 'xx')).toBe('2025-03-19T00:00:00Z');
  });

  it('reads a date written year first with dots or slashes, which is never ambiguous', () => {
    expect(findDatelineDate('Posted 2025/03/19 by admin', 0)).toBe('2025-03-19T00:00:00Z');
    expect(findDatelineDate('2025.12.17', 0)).toBe('2025-12-17T00:00:00Z');
    expect(findDatelineDate('release 2025.1.2.3', 0)).toBeNull();
  });

  it('takes the first date written and the page offset', () => {
    expect(findDatelineDate('Mar 14, 2024\nUpdated 2 June 2025', 0)).toBe('2024-03-14T00:00:00Z');
    expect(findDatelineDate('2024-05-17', 8 * 60)).toBe('2024-05-16T16:00:00Z');
  });

  it("skips dates of other events: an infobox's Founded, a Released or an offer's end", () => {
    // The label in its own cell (a line of its own); the same day again in ISO on the line.
    const infobox = 'Industry\nOpen-source software\nFounded\nFebruary 28, 1998; 18 years ago (1998-02-28)\nFounder';
    expect(findDatelineDate(infobox, 0)).toBeNull();
    expect(findDatelineDate('Released: 4 May 2021', 0)).toBeNull();
    expect(findDatelineDate('Sale ends February 13, 2026', 0)).toBeNull();
    expect(findDatelineDate('Book by December 30. Travel through December 31, 2025.', 0)).toBeNull();
    expect(findDatelineDate('Mortal Kombat II\nReleases May 8, 2026', 0)).toBeNull();
    expect(findDatelineDate('Last active December 20, 2025 13:58', 0)).toBeNull();
    // A forum poster's card, its weekday between the label and the date.
    expect(findDatelineDate('changingtimes\nPosts: 524\nJoined: Mon Jul 24, 2017 9:28 am', 0)).toBeNull();
    expect(findDatelineDate('Registered: 5 March 2019', 0)).toBeNull();
    // An API version named by its day is no date; an ISO date ending a sentence is one.
    expect(findDatelineDate('API version 2026-02-25.clover', 0)).toBeNull();
    expect(findDatelineDate('Posted 2026-02-25.', 0)).toBe('2026-02-25T00:00:00Z');
    // A later line still counts; so does a date after words that are not such labels.
    expect(findDatelineDate('Born 1 March 1970\nPosted March 2, 2024', 0)).toBe('2024-03-02T00:00:00Z');
    expect(findDatelineDate('Published on 3 May 2021', 0)).toBe('2021-05-03T00:00:00Z');
    // The post's own date in the same form as the skipped one, and a day that does not exist.
    const card = 'Joined: Mon Jul 24, 2017 9:28 am\nPost by changingtimes » Tue Aug 14, 2018 4:02 pm';
    expect(findDatelineDate(card, 0)).toBe('2018-08-14T00:00:00Z');
    expect(findDatelineDate('Registered: 5 March 2019\nPosted 7 June 2020', 0)).toBe('2020-06-07T00:00:00Z');
    expect(findDatelineDate('February 30, 2024 was no day; February 29, 2024 was', 0)).toBe('2024-02-29T00:00:00Z');
    expect(findDatelineDate('Joined: 1. März 1998\n7. Juni 2020', 0, 'de')).toBe('2020-06-07T00:00:00Z');
  });

  it('reads a date with slashes when one of its first two numbers cannot be a month', () => {
    expect(findDatelineDate('Updated: 10/31/2024 JUMP TO THE LIST', 0)).toBe('2024-10-31T00:00:00Z');
    expect(findDatelineDate('By Ann Lee\n2/24/2026', 0)).toBe('2026-02-24T00:00:00Z');
    expect(findDatelineDate('24/2/2026', 0)).toBe('2026-02-24T00:00:00Z');
    // Either end of a range of days is another event's (a course, an offer), not the page's.
    expect(findDatelineDate('Spring 2026 Tuesdays 1/27/2026\u00a0 - 3/24/2026 6:15 PM', 0)).toBeNull();
    expect(findDatelineDate('Valid 13/1/2026–28/2/2026', 0)).toBeNull();
    // Not part of a longer run of numbers.
    expect(findDatelineDate('ref 3/2/31/2024', 0)).toBeNull();
  });

  it('reads no ambiguous or impossible dates', () => {
    expect(findDatelineDate('12/01/2025', 0)).toBeNull();
    // Month 13, a version number, an IP-like run: not days.
    expect(findDatelineDate('12.13.2025', 0)).toBeNull();
    expect(findDatelineDate('v1.2.2025.4', 0)).toBeNull();
    expect(findDatelineDate('February 31, 2024', 0)).toBeNull();
    expect(findDatelineDate('Best laptops of 2025', 0)).toBeNull();
    expect(findDatelineDate('', 0)).toBeNull();
  });
});
