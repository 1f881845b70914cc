import { colorFromSeed } from '@board/kernel';
import { readEmail } from './email';
import { readColor, readEmoji, readName, User, UserProps } from './user';
import { refusal } from '../../../test/support/refusal';

const NOW = new Date('2025-01-02T03:04:05.000Z');
const ID = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const PROJECT = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

const person = () =>
  User.registerPerson({ id: ID, email: readEmail(' Ada@Example.com '), name: readName('  Ada Lovelace ', true), passwordHash: 'hash', now: NOW });

describe('User.registerPerson', () => {
  it('makes a human with a lower-cased email, a trimmed name and the colour of its email', () => {
    const user = person();
    expect(user.snapshot).toEqual<UserProps>({
      id: ID,
      kind: 'human',
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      color: colorFromSeed('ada@example.com'),
      emoji: null,
      passwordHash: 'hash',
      projectId: null,
      createdAt: NOW,
      mailNotifications: true,
      totp: false,
    });
    expect(user.isAgent).toBe(false);
    expect(user.view).toEqual({ id: ID, email: 'ada@example.com', name: 'Ada Lovelace', color: colorFromSeed('ada@example.com'), emoji: null, mailNotifications: true, totp: false });
  });

  it('takes what the readers answer: they refuse a bad email and a missing or long name', () => {
    expect(refusal(() => readEmail('nope')).code).toBe('account.email_invalid');
    const missing = refusal(() => readName(undefined, true));
    expect(missing.code).toBe('text.empty');
    expect(missing.params).toEqual({ field: 'Name' });
    const long = refusal(() => readName('x'.repeat(81), true));
    expect(long.code).toBe('text.too_long');
    expect(long.params).toEqual({ field: 'Name', max: 80 });
  });
});

describe('User.createAgent', () => {
  it('makes an agent of one project without email or password', () => {
    const agent = User.createAgent({ id: ID, projectId: PROJECT, name: 'Builder', now: NOW });
    expect(agent.isAgent).toBe(true);
    expect(agent.kind).toBe('agent');
    expect(agent.projectId).toBe(PROJECT);
    expect(agent.passwordHash).toBeNull();
    expect(agent.snapshot.email).toBeNull();
    expect(agent.snapshot.color).toBe(colorFromSeed(ID));
    expect(agent.snapshot.emoji).toBeNull();
  });

  it('takes a given colour (lower-cased by its reader) and emoji', () => {
    const agent = User.createAgent({ id: ID, projectId: PROJECT, name: 'Builder', color: readColor('#6D5BD0'), emoji: readEmoji('🤖'), now: NOW });
    expect(agent.snapshot.color).toBe('#6d5bd0');
    expect(agent.snapshot.emoji).toBe('🤖');
  });

  it('has readers that refuse the grey and two emoji', () => {
    expect(refusal(() => readColor('#8b8f98')).code).toBe('account.color_invalid');
    expect(refusal(() => readEmoji('🤖🤖')).code).toBe('account.emoji_invalid');
  });
});

describe('User.changeProfile', () => {
  it('changes name, colour and emoji and says so', () => {
    const user = person();
    expect(user.changeProfile({ name: readName(' Ada ', true), color: readColor('#3FB0C8'), emoji: readEmoji('👍🏽') })).toBe(true);
    expect(user.view).toEqual({ id: ID, email: 'ada@example.com', name: 'Ada', color: '#3fb0c8', emoji: '👍🏽', mailNotifications: true, totp: false });
  });

  it('answers false when nothing changes', () => {
    const user = person();
    expect(user.changeProfile({})).toBe(false);
    expect(user.changeProfile({ name: 'Ada Lovelace' })).toBe(false);
  });

  it('clears the emoji with null', () => {
    const user = person();
    user.changeProfile({ emoji: '😀' });
    expect(user.changeProfile({ emoji: null })).toBe(true);
    expect(user.view.emoji).toBeNull();
  });
});

describe('readName, readColor, readEmoji', () => {
  it('readName: optional or required, at most 80', () => {
    expect(readName(undefined, false)).toBeUndefined();
    expect(refusal(() => readName(undefined, true)).code).toBe('text.empty');
    expect(readName('x'.repeat(80), true)).toBe('x'.repeat(80));
  });

  it('readColor: one of the eleven, lower-cased', () => {
    expect(readColor(undefined)).toBeUndefined();
    expect(readColor(' #E0574D ')).toBe('#e0574d');
    expect(refusal(() => readColor('#8b8f98')).code).toBe('account.color_invalid');
    expect(refusal(() => readColor('red')).code).toBe('account.color_invalid');
    const long = refusal(() => readColor('#e0574d0'));
    expect(long.code).toBe('text.too_long');
    expect(long.params).toEqual({ field: 'Color', max: 7 });
    expect(refusal(() => readColor(7)).code).toBe('text.not_text');
  });

  it('readEmoji: one emoji, null, or not sent', () => {
    expect(readEmoji(undefined)).toBeUndefined();
    expect(readEmoji(null)).toBeNull();
    expect(readEmoji('👨‍👩‍👧')).toBe('👨‍👩‍👧');
    for (const bad of ['a', '', '😀😀', 1]) expect(refusal(() => readEmoji(bad)).code).toBe('account.emoji_invalid');
  });
});

describe('User.restore', () => {
  it('copies the props so later changes do not leak into the caller', () => {
    const props: UserProps = { ...person().snapshot };
    const user = User.restore(props);
    user.changeProfile({ name: 'Changed' });
    expect(props.name).toBe('Ada Lovelace');
    user.setPasswordHash('new');
    expect(user.passwordHash).toBe('new');
    expect(props.passwordHash).toBe('hash');
  });
});

describe('User.setMailNotifications', () => {
  it('is on for a new person, turns off and on, and refuses anything but a boolean', () => {
    const user = User.registerPerson({ id: '00000000-0000-4000-8000-000000000001', email: 'mail@example.com', name: 'Mail', passwordHash: 'x', now: new Date() });
    expect(user.view.mailNotifications).toBe(true);
    expect(user.setMailNotifications(false)).toBe(true);
    expect(user.setMailNotifications(false)).toBe(false);
    expect(user.view.mailNotifications).toBe(false);
    expect(User.readMailNotifications(undefined)).toBeUndefined();
    expect(() => User.readMailNotifications('no')).toThrow(expect.objectContaining({ code: 'input.boolean' }));
  });
});
