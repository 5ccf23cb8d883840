import { describe, expect, it } from '@jest/globals';
import { parseHTML } from 'linkedom';
import { marked } from 'marked';
import { contentMarkdown } from './markdown.js';

const markdownOf = (inner: string): string =>
  contentMarkdown(
    parseHTML(`<html><body><div id="c">${inner}</div></body></html>`).document.getElementById(
      'c',
    ) as unknown as Element,
  );
const rendered = (markdown: string): string => marked.parse(markdown, { async: false });

describe('emphasis marks where markdown reads them', () => {
  it('moves the punctuation that ends bold out of it before text written without spaces', () => {
    const md = markdownOf('<p><b>李金泽：</b>政府通过实行“一增一减”的农业政策。</p>');
    expect(md).toBe('**李金泽**：政府通过实行“一增一减”的农业政策。');
    expect(rendered(md)).toContain('<strong>李金泽</strong>：政府');
  });

  it('parts bold ending in punctuation from a capital after it, and gives a word that runs on its apostrophe', () => {
    const md = markdownOf(
      "<p><b>Christina Burek (UK)</b>Reviewed 01/05/2024</p><p>The syntax of <em>systemd'</em>s unit files.</p>",
    );
    expect(md).toBe("**Christina Burek (UK)** Reviewed 01/05/2024\n\nThe syntax of *systemd*'s unit files.");
    expect(rendered(md)).toContain('<strong>Christina Burek (UK)</strong> Reviewed');
    expect(rendered(md)).toContain('<em>systemd</em>&#39;s unit files');
  });

  it('moves the punctuation that opens bold right after a word before it', () => {
    const md = markdownOf('<p>But let’s be real<b>: those cups are small</b> indeed.</p>');
    expect(md).toBe('But let’s be real: **those cups are small** indeed.');
    expect(rendered(md)).toContain('<strong>those cups are small</strong>');
  });

  it('unwraps emphasis of punctuation alone beside a word, and keeps it between spaces', () => {
    const md = markdownOf(
      '<p>Press Win<b>+</b>Space, then fold it over on the top<b>.</b> The button <b>"://"</b> opens it.</p>',
    );
    expect(md).toBe('Press Win+Space, then fold it over on the top. The button **"://"** opens it.');
    expect(rendered(md)).toContain('<strong>&quot;://&quot;</strong>');
  });

  it('moves punctuation out of the element at the emphasis’ edge, however deep', () => {
    // Black & Decker's review: `real<strong><span>: Those cups…</span></strong>` showed its stars.
    const md = markdownOf(
      '<p>But let’s be real<strong><span>: Those cups are small.</span></strong> Then <b><span><i>Gallery</i>.</span></b>s opened.</p>',
    );
    expect(md).toBe('But let’s be real: **Those cups are small.** Then ***Gallery***.s opened.');
    const html = rendered(md);
    expect(html).toContain('real: <strong>Those cups are small.</strong>');
    expect(html).toContain('<em><strong>Gallery</strong></em>.s');
    expect(html).not.toContain('*');
  });

  it('puts bold that holds only a link inside the link where a word stands beside it', () => {
    // Chinese Wikipedia's notice: `**[改善本条目](…)**或在` showed its stars.
    const md = markdownOf(
      '<p>请协助<b><a href="/e">改善本条目</a></b>或在<b> <a href="/t">讨论页</a></b>针对。Read the<b> <a href="/g">guide</a> </b>today, or <b><a href="/h">this</a></b>.</p>',
    );
    expect(md).toBe(
      '请协助[**改善本条目**](/e)或在 [**讨论页**](/t)针对。Read the [**guide**](/g) today, or **[this](/h)**.',
    );
    const html = rendered(md);
    expect(html).toContain('请协助<a href="/e"><strong>改善本条目</strong></a>或在');
    expect(html).toContain('the <a href="/g"><strong>guide</strong></a> today');
    expect(html).not.toContain('*');
  });

  it('unwraps bold that holds only a picture', () => {
    // Guide to Iceland: `<strong><span><img …></span></strong>Solo travelers…`.
    const md = markdownOf(
      '<p><strong><span><img src="/k.jpg" alt="Kirkjufell"></span></strong>Solo travelers find tours cheaper.</p>',
    );
    expect(md).toBe('![Kirkjufell](/k.jpg)Solo travelers find tours cheaper.');
    expect(rendered(md)).not.toContain('*');
  });

  it('leaves emphasis that markdown reads as it is, and code', () => {
    const html =
      '<p>A <b>bold</b> word, <a href="/h"><b>Hive</b></a><b>.</b> and <i>(aside)</i>.</p><pre><code>x<b>:</b>y</code></pre>';
    expect(markdownOf(html)).toBe('A **bold** word, [**Hive**](/h)**.** and *(aside)*.\n\n```\nx:y\n```');
  });
});
