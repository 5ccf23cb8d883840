/**
 * Longest accepted `q`, in Unicode code points (an emoji counts as one). Checked before any other
 * work, so an oversized query costs microseconds whatever its size.
 */
export const MAX_QUERY_LENGTH = 2048;

/**
 * Most terms and phrases (excluded ones included) a parsed query may hold. Bounds the work every
 * backend does per query, and the size of the SQL or filter expression it builds.
 */
export const MAX_QUERY_CLAUSES = 64;
