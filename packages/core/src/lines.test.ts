import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { type FileLine, type ReadLinesOptions, readLines } from './lines.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function linesOf(content: string | Buffer, options: ReadLinesOptions = {}): Promise<FileLine[]> {
  const path = join(dir, `f${Math.random()}`);
  writeFileSync(path, content);
  const out: FileLine[] = [];
  for await (const line of readLines(path, options)) out.push(line);
  return out;
}

describe('readLines', () => {
  it('splits on LF and CRLF, keeps empty lines and a last line without a break', async () => {
    const lines = await linesOf('a\r\n\nb\nlast');
    expect(lines.map((l) => l.text)).toEqual(['a', '', 'b', 'last']);
    expect(lines.map((l) => l.bytesRead)).toEqual([3, 4, 6, 10]);
  });

  it('has no extra line after a final break, and none in an empty file', async () => {
    expect((await linesOf('one\n')).map((l) => l.text)).toEqual(['one']);
    expect(await linesOf('')).toEqual([]);
  });

  it('decodes characters whose bytes fall on both sides of a chunk boundary', async () => {
    const text = ['北京天气 🎉 café', 'x'.repeat(5), 'Ünïcödé 検索'];
    // Chunks of 3 bytes cut through every multi-byte character somewhere.
    const lines = await linesOf(text.join('\n'), { chunkBytes: 3 });
    expect(lines.map((l) => l.text)).toEqual(text);
    expect(lines.at(-1)?.bytesRead).toBe(Buffer.byteLength(text.join('\n')));
  });

  it('reports a line over the limit as null, without decoding it, and goes on', async () => {
    const lines = await linesOf(`short\n${'y'.repeat(100)}\r\nafter\n${'z'.repeat(11)}`, {
      maxBytes: 10,
      chunkBytes: 7,
    });
    expect(lines.map((l) => l.text)).toEqual(['short', null, 'after', null]);
    expect(lines[1]?.bytesRead).toBe(6 + 102);
  });
});
