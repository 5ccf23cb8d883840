import { describe, expect, it } from '@jest/globals';
import { chooseAuthor } from './author-choice.js';

const base = { declared: [], zhByline: null, bylines: [], siteName: null, url: 'https://www.rapid7.com/blog/post/x' };

describe('chooseAuthor', () => {
  it('takes the first declared name', () => {
    expect(chooseAuthor({ ...base, declared: [null, 'By Jane Doe', 'Joe Bloggs'], bylines: ['Ann'] })).toBe('Jane Doe');
  });

  it('passes over a declared name that only names the site when a person is named', () => {
    expect(chooseAuthor({ ...base, declared: ['Rapid7'], bylines: ['Spencer McIntyre'] })).toBe('Spencer McIntyre');
    expect(chooseAuthor({ ...base, declared: ['UXCam', 'Annemarie Bufe'], url: 'https://uxcam.com/blog/x' })).toBe(
      'Annemarie Bufe',
    );
    expect(chooseAuthor({ ...base, declared: ['Rapid7'] })).toBe('Rapid7');
  });

  it('takes the thread starter on a forum, else the first byline that is a name', () => {
    expect(chooseAuthor({ ...base, bylines: ['M mer', 'PMc', 'OP piizog'] })).toBe('piizog');
    expect(chooseAuthor({ ...base, bylines: ['About the Author', 'Jeffrey Zeldman'] })).toBe('Jeffrey Zeldman');
    expect(chooseAuthor(base)).toBeNull();
  });

  it('prefers a Chinese byline to a declared news organisation', () => {
    expect(chooseAuthor({ ...base, declared: ['中国新闻网'], zhByline: '王建宏', url: 'https://a.cn/1' })).toBe(
      '王建宏',
    );
    expect(chooseAuthor({ ...base, declared: ['张三'], zhByline: '王建宏', url: 'https://a.cn/1' })).toBe('张三');
  });
});
