import { describe, expect, it } from '@jest/globals';
import { cleanAuthor, findZhByline } from './author.js';

describe('cleanAuthor', () => {
  it('strips byline prefixes and trailing parts', () => {
    expect(cleanAuthor('By Jane Doe')).toBe('Jane Doe');
    expect(cleanAuthor('  Written by   Rob Ewaschuk Edited by Betsy Beyer')).toBe('Rob Ewaschuk');
    expect(cleanAuthor('by Jane Doe | May 5, 2024')).toBe('Jane Doe');
    expect(cleanAuthor('作者：张三')).toBe('张三');
    expect(cleanAuthor('赵 培')).toBe('赵培');
  });

  it('rejects URLs, dates, numbers and long text', () => {
    expect(cleanAuthor('https://example.com/authors/jane')).toBeNull();
    expect(cleanAuthor('April 28, 2019 at 6:01 am')).toBeNull();
    expect(cleanAuthor('2024-05-17')).toBeNull();
    expect(cleanAuthor('user 545803')).toBeNull();
    expect(cleanAuthor('word '.repeat(30))).toBeNull();
    expect(cleanAuthor('')).toBeNull();
  });
});

describe('findZhByline', () => {
  it('reads labelled bylines, several names on one line', () => {
    expect(findZhByline('光明日报记者 王建宏 张文攀\n\n正文开始', '')).toBe('王建宏 张文攀');
    expect(findZhByline('来源：巴彦淖尔日报 编辑：苏亮', '')).toBe('苏亮');
  });

  it('reads a closing parenthesis at the end of the article', () => {
    expect(findZhByline('', '……推动高质量发展。（记者 胡晓蓉）')).toBe('胡晓蓉');
    expect(findZhByline('', '这是改革的过程吗？”（姚峰 上海报道）')).toBe('姚峰');
  });

  it('does not take prose after a label as a name', () => {
    expect(findZhByline('记者经历了近十年的调查', '')).toBeNull();
  });
});
