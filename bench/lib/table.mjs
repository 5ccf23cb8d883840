/** Prints rows (objects with the same keys) as a Markdown table. */
export function printTable(title, rows) {
  console.log(`\n## ${title}\n`);
  if (rows.length === 0) {
    console.log('(no rows)');
    return;
  }
  const keys = Object.keys(rows[0]);
  const cells = rows.map((r) => keys.map((k) => String(r[k] ?? '')));
  const widths = keys.map((k, i) => Math.max(k.length, ...cells.map((c) => c[i].length)));
  const line = (values) => `| ${values.map((v, i) => v.padEnd(widths[i])).join(' | ')} |`;
  console.log(line(keys));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const c of cells) console.log(line(c));
}

/** Prints a benchmark part's results ({ title, rows, notes } or an array of them). */
export function printResults(results) {
  for (const result of Array.isArray(results) ? results : [results]) {
    printTable(result.title, result.rows);
    for (const note of result.notes ?? []) console.log(`- ${note}`);
  }
}
