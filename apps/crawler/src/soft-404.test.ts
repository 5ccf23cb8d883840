import { describe, expect, it } from '@jest/globals';
import { isSoftNotFound } from './soft-404.js';

describe('isSoftNotFound', () => {
  it.each([
    '404',
    'Error 404 - Example Shop',
    'Page Not Found',
    'Not found',
    'Oops! That page can’t be found.',
    'Sorry, this page does not exist',
    'This page doesn’t exist',
    'Seite nicht gefunden',
    'Page introuvable',
    'Página no encontrada',
    '页面不存在',
    '找不到该页面',
    'ページが見つかりません',
    'Example Shop | 404',
  ])('a short page titled %s is a soft 404', (title) => {
    expect(isSoftNotFound({ title, word_count: 40 })).toBe(true);
  });

  it.each([
    'The 404 error, explained',
    'Not Found in Translation: a review',
    'Found footage films of 2025',
    'How to fix "page not found" errors in WordPress',
  ])('a short page titled %s is not', (title) => {
    expect(isSoftNotFound({ title, word_count: 40 })).toBe(false);
  });

  it('takes a long page for content whatever its title', () => {
    expect(isSoftNotFound({ title: 'Page not found', word_count: 151 })).toBe(false);
    expect(isSoftNotFound({ title: 'Page not found', word_count: 150 })).toBe(true);
  });
});
