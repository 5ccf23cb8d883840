/**
 * Longest accepted `q`, in Unicode code points (an emoji counts as one). Checked before any other
 * work, so an oversized query costs microseconds whatever its size. Long enough for a question or
 * a paragraph pasted whole (the longest CISI query, 344 words, is 2,083 characters; 3,076 joined
 * with OR).
 */
export const MAX_QUERY_LENGTH = 4096;

/**
 * Most terms and phrases (excluded ones included) a parsed query with operators may hold: phrases,
 * `intitle:`, exclusions, OR groups beside other words. Bounds the work every backend does per
 * query (each such clause is a query of its own to some engine), and the size of the filter
 * expression it builds.
 */
export const MAX_QUERY_CLAUSES = 64;

/**
 * Most distinct words a query of plain words may hold (a word said again counts once) (words only, all required, all joined with OR, or all
 * optional with `match=any`): one engine query whatever their number, so a question in plain
 * language or a pasted paragraph is searched whole. Measured on the embedded index at 100,000
 * pages: 344 words joined with OR, 110–130 ms.
 */
export const MAX_QUERY_WORDS = 400;
