import { describe, expect, it } from '@jest/globals';
import { documentTitle } from './extract-job.js';

describe('documentTitle', () => {
  it.each([
    ['Microsoft Word - Annual report 2019.docx', 'Annual report 2019'],
    ['Microsoft PowerPoint - Q3 review.pptx', 'Q3 review'],
    ['worksheet functions.xlsx', 'worksheet functions'],
    ['The role of mentorship in protégé performance', 'The role of mentorship in protégé performance'],
    ['Version 2.0', 'Version 2.0'],
    ['00463065.tif', null],
    ['Document1', null],
    ['Untitled-3', null],
    ['PowerPoint Presentation', null],
    ['2019', null],
    [null, null],
  ])('%s → %s', (title, expected) => {
    expect(documentTitle(title)).toBe(expected);
  });
});
