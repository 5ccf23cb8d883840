/**
 * A small valid one-page PDF (PDF 1.4, Helvetica) showing the given lines, with a Title and Author
 * in its info dictionary: enough for text extraction tests without shipping binary fixtures.
 */
export function minimalPdf(lines: readonly string[], info: { title?: string; author?: string } = {}): Buffer {
  return pagedPdf([lines], info);
}

/**
 * A valid PDF of one page per entry of `pages` (each its lines), all of them kids of one page-tree
 * node, as simple writers lay out a long document. `locked`: the file declares RC4 encryption
 * with a user password (its check values match none), so readers ask for a password. `padBytes`:
 * that many bytes more, in an unreferenced stream (a large file for size limits).
 *
 * @example pagedPdf(Array.from({ length: 3 }, (_, i) => [`Page ${i + 1}`]))
 */
export function pagedPdf(
  pages: readonly (readonly string[])[],
  info: { title?: string; author?: string; locked?: boolean; padBytes?: number } = {},
): Buffer {
  const esc = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  // 1 catalog, 2 page tree, 3 font, 4 info, then each page and its content.
  const pageRef = (i: number) => `${5 + i * 2} 0 R`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pages.map((_, i) => pageRef(i)).join(' ')}] /Count ${pages.length} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Title (${esc(info.title ?? '')}) /Author (${esc(info.author ?? '')}) >>`,
  ];
  const check = '5a'.repeat(32);
  const encrypt = `<< /Filter /Standard /V 1 /R 2 /O <${check}> /U <${check}> /P -4 >>`;
  pages.forEach((lines, i) => {
    const text = lines.map((line, k) => `BT /F1 14 Tf 72 ${720 - k * 20} Td (${esc(line)}) Tj ET`).join('\n');
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${6 + i * 2} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`,
      `<< /Length ${Buffer.byteLength(text, 'latin1')} >>\nstream\n${text}\nendstream`,
    );
  });
  if (info.locked) objects.push(encrypt);
  // A stream nothing refers to, of `padBytes` spaces: a file that size, read as the small one it is.
  if (info.padBytes) objects.push(`<< /Length ${info.padBytes} >>\nstream\n${' '.repeat(info.padBytes)}\nendstream`);
  const chunks = ['%PDF-1.4\n'];
  let size = chunks[0]?.length ?? 0;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(size);
    const chunk = `${i + 1} 0 obj\n${body}\nendobj\n`;
    chunks.push(chunk);
    size += Buffer.byteLength(chunk, 'latin1');
  });
  chunks.push(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`);
  for (const offset of offsets) chunks.push(`${String(offset).padStart(10, '0')} 00000 n \n`);
  const locking = info.locked ? ` /Encrypt ${objects.length} 0 R /ID [<${'01'.repeat(16)}> <${'01'.repeat(16)}>]` : '';
  chunks.push(
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 4 0 R${locking} >>\nstartxref\n${size}\n%%EOF\n`,
  );
  return Buffer.from(chunks.join(''), 'latin1');
}
