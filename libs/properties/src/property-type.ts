import { fail } from '@board/kernel';

export const PROPERTY_TYPES = ['select', 'multi_select', 'iteration', 'person', 'text', 'number', 'date', 'checkbox', 'link'] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];

export const PROPERTY_NAME_MAX = 40;
export const OPTION_NAME_MAX = 40;
export const OPTIONS_ON_CREATE_MAX = 40;

export function readPropertyType(value: unknown): PropertyType {
  if (typeof value !== 'string' || !(PROPERTY_TYPES as readonly string[]).includes(value)) fail('property.type_invalid');
  return value as PropertyType;
}

/** Only these types keep a list of options. */
export const hasOptions = (type: string): boolean => type === 'select' || type === 'multi_select' || type === 'iteration';

/** Only these types may carry a per-Type default. */
export const canCarryDefault = (type: string): boolean =>
  type === 'select' || type === 'multi_select' || type === 'checkbox' || type === 'number' || type === 'text';

/** Options of a dated select and of an iteration carry startsOn, targetOn, note and shippedAt. */
export const hasDatedOptions = (type: string, config: { dated?: unknown }): boolean =>
  type === 'iteration' || (type === 'select' && config.dated === true);

/** Where a property sits on the card when shown: its type decides the mode. */
export function cardHome(type: string): { place: string; mode: string } {
  if (hasOptions(type)) return { place: 'footer', mode: 'colour' };
  if (type === 'person') return { place: 'footer', mode: 'avatar' };
  return { place: 'footer', mode: 'text' };
}

/** A new property joins every card's footer; a link starts off the card. */
export const cardStart = (type: string): { place: string; mode: string } =>
  type === 'link' ? { place: 'off', mode: 'text' } : cardHome(type);
