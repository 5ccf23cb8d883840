import { type NodeHtmlMarkdown, PostProcessResult, type TranslatorConfigFactory } from 'node-html-markdown';

/**
 * The escapes node-html-markdown puts before what would start a list, a heading or a quote at the
 * beginning of a line (`\-`, `\+`, `\#`, `\>`, `\=`, `1\.`). It puts them at the start of every
 * text, wherever the text stands: a link's `--release` came out `[\--release](…)`.
 */
const LINE_START_ESCAPE = /^(\s*)(?:\\([-+=>#])|(\d+)\\([.)]))/;

/** `text` without the escape it starts with, for text that cannot start a line of its own. */
export function unescapeLineStart(text: string): string {
  return text.replace(LINE_START_ESCAPE, (_, space: string, mark?: string, number?: string, dot?: string) =>
    mark === undefined ? `${space}${number}${dot}` : `${space}${mark}`,
  );
}

/**
 * Links written without that escape (edits `converter`): a link's text follows its `[`, so it never
 * starts a line. A link that shows no text nor picture (an icon font's, a script's `#`) is left out:
 * `[](…)` says nothing to a reader, and sat between words. Bare links (`<https://…>`) and links
 * without a target are left as they are.
 */
export function mendLinkText(converter: NodeHtmlMarkdown): void {
  for (const translators of [converter.translators, converter.tableCellTranslators]) {
    const link = translators.get('a');
    if (typeof link !== 'function') continue;
    const mended: TranslatorConfigFactory = (context) => {
      const config = link(context);
      const postprocess = config.postprocess;
      if (postprocess === undefined) return config;
      return {
        ...config,
        postprocess: (ctx) => {
          const content = postprocess(ctx);
          // Trimmed too: the spaces at a link's edges are moved out of it before (see spaceOutsideLinks);
          // those left are the line breaks around a block in it.
          if (typeof content !== 'string') return content;
          return content.trim() === '' ? PostProcessResult.RemoveNode : unescapeLineStart(content.trim());
        },
      };
    };
    translators.set('a', mended);
  }
}
