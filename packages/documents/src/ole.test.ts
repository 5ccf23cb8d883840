import { describe, expect, it } from '@jest/globals';
import CFB from 'cfb';
import { openOle, pptText } from './ole.js';

/** A record of [MS-PPT]: its header (version, instance, type, length) and body. */
const record = (type: number, body: Buffer, container = false): Buffer => {
  const header = Buffer.alloc(8);
  header.writeUInt16LE(container ? 0x0f : 0, 0);
  header.writeUInt16LE(type, 2);
  header.writeUInt32LE(body.length, 4);
  return Buffer.concat([header, body]);
};
const textType = (type: number) => {
  const body = Buffer.alloc(4);
  body.writeUInt32LE(type, 0);
  return record(0x0f9f, body);
};
const chars = (text: string) => record(0x0fa0, Buffer.from(text, 'utf16le'));
const container = (type: number, ...children: Buffer[]) => record(type, Buffer.concat(children), true);

/** A .ppt whose `PowerPoint Document` stream holds `records`. */
function ppt(...records: Buffer[]) {
  const file = CFB.utils.cfb_new();
  CFB.utils.cfb_add(file, 'PowerPoint Document', Buffer.concat(records));
  return openOle(CFB.write(file, { type: 'buffer' }) as Buffer);
}

describe('pptText', () => {
  it("heads a slide's section with its title, writes its notes as a quote, and leaves out the masters", () => {
    const doc = pptText(
      ppt(
        container(0x03f8, textType(0), chars('Click to edit Master title style')),
        container(0x03ee, textType(0), chars('Quarterly review'), textType(1), chars('Revenue up\r1. Costs down')),
        container(0x03f0, textType(4), chars('*'), textType(2), chars('Say the numbers slowly.\rThen stop.')),
        container(0x03ee, textType(6), chars('Next steps')),
      ),
      10_000,
    );
    expect(doc.text).toBe(
      'Quarterly review\nRevenue up\n1. Costs down\nSay the numbers slowly.\nThen stop.\nNext steps',
    );
    expect(doc.markdown).toBe(
      '## Quarterly review\n\nRevenue up\n\n1\\. Costs down\n\n> Say the numbers slowly.\n>\n> Then stop.\n\n## Next steps',
    );
  });
});
