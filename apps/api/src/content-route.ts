import type { ContentResponse, PageDocument } from '@quarry/core';
import { isPageId } from '@quarry/core';
import type { RequestHandler } from 'express';
import type { ApiDeps } from './deps.js';
import { sendProblem } from './problem.js';

/** Exactly the spec 2.3 fields of a stored page; internal columns never leave the server. */
export function toContentResponse(doc: PageDocument): ContentResponse {
  return {
    id: doc.id,
    url: doc.url,
    title: doc.title,
    body_text: doc.body_text,
    author: doc.author,
    published_at: doc.published_at,
    lang: doc.lang,
    word_count: doc.word_count,
    crawled_at: doc.crawled_at,
    has_llms_txt: doc.has_llms_txt,
  };
}

/** `GET /api/v1/content/:id` (spec 4.2): 404 for an unknown, malformed or external (empty) id. */
export function contentRoute(deps: ApiDeps): RequestHandler<{ id: string }> {
  return async (req, res) => {
    const { id } = req.params;
    const doc = isPageId(id) ? await deps.blobs.get(id) : null;
    if (!doc) {
      sendProblem(res, 'not-found', 'No indexed page has this id. Only local results have content.');
      return;
    }
    res.json(toContentResponse(doc));
  };
}
