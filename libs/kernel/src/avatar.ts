import { createHash } from 'node:crypto';

/** The eleven avatar colours, exactly as the contract lists them. */
export const AVATAR_COLORS = [
  '#e0574d', '#d1913a', '#4f8a5b', '#3fb0c8', '#4b8fbe', '#6d5bd0',
  '#c2557a', '#b6763f', '#2f9e7a', '#7a8a2f', '#3d7fc1',
] as const;

/** Grey reads as nobody: an option colour, never an avatar colour. */
export const NOBODY_GREY = '#8b8f98';
export const OPTION_COLORS = [...AVATAR_COLORS, NOBODY_GREY] as const;

export const isAvatarColor = (value: string): boolean => (AVATAR_COLORS as readonly string[]).includes(value.toLowerCase());

/** A stable colour from a seed (an email, lower-cased): the same address always gets the same colour. */
export function colorFromSeed(seed: string): string {
  const digest = createHash('sha256').update(seed.trim().toLowerCase()).digest();
  return AVATAR_COLORS[digest.readUInt32BE(0) % AVATAR_COLORS.length];
}
