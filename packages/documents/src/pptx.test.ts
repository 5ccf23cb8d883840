import { describe, expect, it } from '@jest/globals';
import { strToU8 } from 'fflate';
import { pptxSlides } from './pptx.js';

const slides = (...xml: string[]) =>
  Object.fromEntries(xml.map((source, i) => [`ppt/slides/slide${i + 1}.xml`, strToU8(source)]));
const run = (text: string): string => `<a:r><a:rPr lang="en-US" dirty="0"/><a:t>${text}</a:t></a:r>`;
const para = (text: string): string => `<a:p>${run(text)}</a:p>`;
/** A shape, a placeholder of `type` when one is given. */
const shape = (type: string | null, ...paragraphs: string[]): string =>
  `<p:sp><p:nvSpPr><p:cNvPr id="2" name="S"/><p:cNvSpPr/><p:nvPr>${type === null ? '' : `<p:ph type="${type}"/>`}</p:nvPr></p:nvSpPr>` +
  `<p:txBody><a:bodyPr/>${paragraphs.map(para).join('')}</p:txBody></p:sp>`;
const cell = (text: string): string => `<a:tc><a:txBody>${para(text)}</a:txBody><a:tcPr/></a:tc>`;
const table = (...rows: string[][]): string =>
  `<p:graphicFrame><a:graphic><a:graphicData><a:tbl><a:tblGrid/>${rows
    .map((row) => `<a:tr h="370840">${row.map(cell).join('')}</a:tr>`)
    .join('')}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`;

describe('pptxSlides', () => {
  it('reads the paragraphs of each slide in order, one per line, runs joined, its notes after it', () => {
    const entries = {
      ...slides(
        `<p:sld><p:txBody><a:p><a:pPr algn="l"/>${run('Q3 ')}<a:r><a:t xml:space="preserve">review</a:t></a:r></a:p>` +
          `<a:p><a:endParaRPr/></a:p><a:p>${run('Tom &amp; Jerry &#8212; notes')}<a:tab/></a:p></p:txBody></p:sld>`,
        `<p:sld><a:p>${run('Second')}<a:br><a:rPr lang="en-US"/></a:br>${run('line')}</a:p></p:sld>`,
      ),
      'ppt/notesSlides/notesSlide1.xml': strToU8(`<p:notes>${para('Speaker note')}</p:notes>`),
    };
    expect(pptxSlides(entries, 1_000)).toEqual([
      {
        text: 'Q3 review\nTom & Jerry — notes\nSpeaker note',
        markdown: '## Q3 review\n\nTom & Jerry — notes\n\n> Speaker note',
      },
      { text: 'Second\nline', markdown: '## Second line' },
    ]);
  });

  it('heads a slide with its title placeholder, writes its tables, and leaves out numbers, dates and footers', () => {
    const entries = {
      ...slides(
        `<p:sld><p:cSld><p:spTree>${shape(null, '1. Revenue rose', 'Costs fell')}${shape('title', 'Results')}` +
          `${table(['Region', 'Sales '], ['North', '12'])}${shape('sldNum', '7')}${shape('ftr', 'Confidential')}` +
          `${shape('dt', '3/4/2025')}</p:spTree></p:cSld></p:sld>`,
      ),
      'ppt/notesSlides/notesSlide1.xml': strToU8(
        `<p:notes>${shape('sldImg')}${shape('body', 'Stress the north.', 'Then stop.')}${shape('sldNum', '7')}</p:notes>`,
      ),
    };
    expect(pptxSlides(entries, 1_000)).toEqual([
      {
        text: '1. Revenue rose\nCosts fell\nResults\nRegion\tSales\nNorth\t12\nStress the north.\nThen stop.',
        markdown:
          '## Results\n\n1\\. Revenue rose\n\nCosts fell\n\n| Region | Sales |\n| --- | --- |\n| North | 12 |\n\n' +
          '> Stress the north.\n>\n> Then stop.',
      },
    ]);
  });

  it('reads a slide of unclosed paragraphs, shapes and tags in one pass', () => {
    // 1 MB of `<a:p>` took 23 s and 1 MB of `<a:t ` 71 s when each was scanned to the slide's end.
    const entries = slides(
      `<p:sld><a:p>${run('Title')}</a:p>${'<a:p>'.repeat(200_000)}</p:sld>`,
      `<p:sld><a:p>${run('Before')}</a:p><a:p>${'<a:t '.repeat(200_000)}</a:p><a:p>${run('After')}</a:p></p:sld>`,
      `<p:sld>${shape('title', 'Shapes')}${'<p:sp><a:tr><a:tc>'.repeat(100_000)}</p:sld>`,
    );
    expect(pptxSlides(entries, 1_000).map((s) => s.text)).toEqual(['Title', 'Before\nAfter', 'Shapes']);
  });

  it('reads a run of blanks without a line break in one pass, and trims the blanks around breaks', () => {
    // 200 KB of spaces in one run took 59 s (a 180 KB deck unzipping to 180 MB ran into the timeout).
    const entries = slides(
      `<p:sld><a:p>${run(`Wide${' '.repeat(300_000)}gap`)}</a:p></p:sld>`,
      `<p:sld><a:p>${run('One \u00a0')}<a:br/>${run('\t two')}</a:p></p:sld>`,
    );
    expect(pptxSlides(entries, 1_000_000).map((s) => s.text.replace(/ +/g, ' '))).toEqual(['Wide gap', 'One\ntwo']);
  });
});
