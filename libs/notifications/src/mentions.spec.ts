import { mentionedIn, newMentions } from './mentions';

const ann = { id: 'ann', name: 'Ann' };
const annLee = { id: 'ann-lee', name: 'Ann Lee' };
const otherAnn = { id: 'ann-2', name: 'ann' };
const bob = { id: 'bob', name: 'Bob' };

describe('mentionedIn', () => {
  it('takes the longest name that follows an @', () => {
    expect(mentionedIn('ask @Ann Lee please', [ann, annLee])).toEqual(['ann-lee']);
    expect(mentionedIn('ask @Ann please', [ann, annLee])).toEqual(['ann']);
  });

  it('compares names ignoring case and mentions every member of that name', () => {
    expect(mentionedIn('@ANN look', [ann, otherAnn, bob])).toEqual(['ann', 'ann-2']);
  });

  it('needs the name to end at the end of the text or before a character that is not a letter or digit', () => {
    expect(mentionedIn('@Annabel', [ann])).toEqual([]);
    expect(mentionedIn('@Ann2', [ann])).toEqual([]);
    expect(mentionedIn('@Anné', [ann])).toEqual([]);
    expect(mentionedIn('@Ann', [ann])).toEqual(['ann']);
    expect(mentionedIn('(@Ann), @bob!', [ann, bob])).toEqual(['ann', 'bob']);
    expect(mentionedIn('@Ann_x', [ann])).toEqual(['ann']);
  });

  it('needs an @ right before the name', () => {
    expect(mentionedIn('Ann and @ Bob', [ann, bob])).toEqual([]);
    expect(mentionedIn('mail ann@Bob', [bob])).toEqual(['bob']);
  });

  it('falls back to a shorter name when the longer one does not end a word there', () => {
    expect(mentionedIn('@Ann Leet', [ann, annLee])).toEqual(['ann']);
  });
});

describe('newMentions', () => {
  it('answers only the mentions an edit added', () => {
    expect(newMentions('@Ann hi', '@Ann hi @Bob', [ann, bob])).toEqual(['bob']);
    expect(newMentions(null, '@Ann', [ann])).toEqual(['ann']);
    expect(newMentions('@Ann @Bob', '@Bob', [ann, bob])).toEqual([]);
  });
});
