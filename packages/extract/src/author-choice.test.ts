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

  it("cuts the words Readability glued to a byline element's name", () => {
    expect(
      chooseAuthor({
        ...base,
        declared: ['Harry RabinowitzTech Reporter'],
        bylines: ['Harry Rabinowitz\nTech Reporter'],
      }),
    ).toBe('Harry Rabinowitz');
    // The byline element read as one run: its name and rank on two lines.
    expect(
      chooseAuthor({
        ...base,
        declared: ['StarredSkies Big Board Owner'],
        bylines: ['StarredSkies\nBig Board Owner\nPosts: 2'],
      }),
    ).toBe('StarredSkies');
    // Words after a space that the element does not hold are the declared name's own.
    expect(chooseAuthor({ ...base, declared: ['Jane Doe Smith'], bylines: ['Jane Doe'] })).toBe('Jane Doe Smith');
  });

  it("takes the first post's poster before other bylines, after the thread starter", () => {
    expect(chooseAuthor({ ...base, postAuthor: 'Kevin', bylines: ['Rick-Australia\nVeteran'] })).toBe('Kevin');
    expect(chooseAuthor({ ...base, postAuthor: 'Kevin', bylines: ['mer', 'OP piizog'] })).toBe('piizog');
  });

  it('falls back to a text byline (`By Amy Wilhelm`) after the marked bylines', () => {
    expect(chooseAuthor({ ...base, textBylines: ['By Amy Wilhelm'] })).toBe('Amy Wilhelm');
    expect(chooseAuthor({ ...base, bylines: ['Jeffrey Zeldman'], textBylines: ['By Amy Wilhelm'] })).toBe(
      'Jeffrey Zeldman',
    );
    expect(chooseAuthor({ ...base, declared: ['Rapid7'], textBylines: ['By Amy Wilhelm'] })).toBe('Amy Wilhelm');
  });

  it('prefers a Chinese byline to a declared news organisation', () => {
    expect(chooseAuthor({ ...base, declared: ['中国新闻网'], zhByline: '王建宏', url: 'https://a.cn/1' })).toBe(
      '王建宏',
    );
    expect(chooseAuthor({ ...base, declared: ['张三'], zhByline: '王建宏', url: 'https://a.cn/1' })).toBe('张三');
  });
});
