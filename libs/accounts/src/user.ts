import { colorFromSeed, fail, isAvatarColor, isSingleEmoji, readText } from '@board/kernel';
import { readEmail } from './email';

export type UserKind = 'human' | 'agent';

export interface UserProps {
  id: string;
  kind: UserKind;
  email: string | null;
  name: string;
  color: string;
  emoji: string | null;
  passwordHash: string | null;
  /** An agent belongs to exactly one project; null for a person. */
  projectId: string | null;
  createdAt: Date;
  /** Whether `question` and `mention` notifications are mailed (on by default). */
  mailNotifications: boolean;
  /** Two-step sign-in is on (the secret lives with the TOTP repository, never in the aggregate). */
  totp: boolean;
}

/** What auth answers show of a person: `{ id, email, name, color, emoji, totp }`. */
export interface UserView {
  id: string;
  email: string | null;
  name: string;
  color: string;
  emoji: string | null;
}

/** What the auth routes' `{ user }` answers show of the signed-in person: the view and their own settings. */
export interface AccountView extends UserView {
  mailNotifications: boolean;
  /** Two-step sign-in is on. */
  totp: boolean;
}

export const NAME_MAX = 80;

export function readName(value: unknown, required: true): string;
export function readName(value: unknown, required: boolean): string | undefined;
export function readName(value: unknown, required: boolean): string | undefined {
  return readText(value, 'name', { max: NAME_MAX, required });
}

/** `color` must be one of the eleven; the grey and anything else is refused. */
export function readColor(value: unknown): string | undefined {
  const color = readText(value, 'color', { max: 7 });
  if (color === undefined) return undefined;
  if (!isAvatarColor(color)) fail('account.color_invalid');
  return color.toLowerCase();
}

/** One emoji (trimmed, like every string field), or null to go back to initials. */
export function readEmoji(value: unknown): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  const emoji = typeof value === 'string' ? value.trim() : value;
  if (!isSingleEmoji(emoji)) fail('account.emoji_invalid');
  return emoji as string;
}

/** A profile change, each field as its reader answered it (`readName`, `readColor`, `readEmoji`); absent stays. */
export interface ProfileChange {
  name?: string;
  color?: string;
  /** null goes back to initials. */
  emoji?: string | null;
}

/** A person's own account change: the profile and whether questions and mentions are mailed. */
export interface AccountChange extends ProfileChange {
  mailNotifications?: boolean;
}

export class User {
  private constructor(private props: UserProps) {}

  static restore(props: UserProps): User {
    return new User({ ...props });
  }

  /**
   * A person signing up, with the email and name as `readEmail` and `readName` answered them;
   * `passwordHash` null for one who signs in by single sign-on until they set a password.
   */
  static registerPerson(input: { id: string; email: string; name: string; passwordHash: string | null; now: Date }): User {
    const { email, name } = input;
    return new User({
      id: input.id,
      kind: 'human',
      email,
      name,
      color: colorFromSeed(email),
      emoji: null,
      passwordHash: input.passwordHash,
      projectId: null,
      createdAt: input.now,
      mailNotifications: true,
      totp: false,
    });
  }

  /** An agent of a project, its profile as read (`ProfileChange`); no colour: one from its id. */
  static createAgent(input: { id: string; projectId: string; name: string; color?: string; emoji?: string | null; now: Date }): User {
    const name = input.name;
    const color = input.color ?? colorFromSeed(input.id);
    const emoji = input.emoji ?? null;
    return new User({
      id: input.id,
      kind: 'agent',
      email: null,
      name,
      color,
      emoji,
      passwordHash: null,
      projectId: input.projectId,
      createdAt: input.now,
      mailNotifications: false,
      totp: false,
    });
  }

  /** Name, colour and face, each optional; answers whether anything changed. */
  changeProfile(change: ProfileChange): boolean {
    const before = JSON.stringify(this.view);
    if (change.name !== undefined) this.props.name = change.name;
    if (change.color !== undefined) this.props.color = change.color;
    if (change.emoji !== undefined) this.props.emoji = change.emoji;
    return JSON.stringify(this.view) !== before;
  }

  /** A mail notifications setting: a boolean, else `Mail notifications is true or false.` */
  static readMailNotifications(value: unknown): boolean | undefined {
    if (value !== undefined && typeof value !== 'boolean') fail('input.boolean', { field: 'Mail notifications' });
    return value as boolean | undefined;
  }

  /** Mail notifications on or off; answers whether it changed. */
  setMailNotifications(on: boolean): boolean {
    const changed = this.props.mailNotifications !== on;
    this.props.mailNotifications = on;
    return changed;
  }

  setPasswordHash(hash: string): void {
    this.props.passwordHash = hash;
  }

  get id(): string {
    return this.props.id;
  }
  get kind(): UserKind {
    return this.props.kind;
  }
  get isAgent(): boolean {
    return this.props.kind === 'agent';
  }
  get passwordHash(): string | null {
    return this.props.passwordHash;
  }
  get projectId(): string | null {
    return this.props.projectId;
  }
  get name(): string {
    return this.props.name;
  }
  get snapshot(): Readonly<UserProps> {
    return this.props;
  }
  get view(): AccountView {
    const { id, email, name, color, emoji, mailNotifications, totp } = this.props;
    return { id, email, name, color, emoji, mailNotifications, totp };
  }
}
