import type { Member, Property } from '../api/types';
import { isEmpty } from '../board/model';

/** A value as words (list rows, activity). */
export function valueText(prop: Property, value: unknown, members: Map<string, Member>): string {
  if (isEmpty(value)) return '';
  switch (prop.type) {
    case 'select':
    case 'iteration':
      return prop.options.find((o) => o.id === value)?.name ?? '';
    case 'multi_select':
      return (value as string[]).map((id) => prop.options.find((o) => o.id === id)?.name).filter(Boolean).join(', ');
    case 'person':
      return members.get(value as string)?.name ?? '';
    case 'checkbox':
      return value === true ? 'yes' : '';
    case 'link':
      return (value as string[]).join(' ');
    default:
      return String(value);
  }
}

export function ValueText({ prop, value, members }: { prop: Property; value: unknown; members: Map<string, Member> }) {
  return <>{valueText(prop, value, members)}</>;
}
