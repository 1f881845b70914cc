import type { Person } from '../api/types';

export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '?') + (parts.length > 1 ? parts[parts.length - 1][0] : '')).toUpperCase();
}

/** A round face: the person's emoji, else initials on their colour. */
export function Avatar({ person, size = 24, title }: { person: Person | null | undefined; size?: number; title?: string }) {
  if (!person) return <span className="avatar avatar-none" style={{ width: size, height: size }} aria-hidden="true" />;
  return (
    <span
      className="avatar"
      role="img"
      aria-label={title ?? person.name}
      title={title ?? person.name}
      style={{ width: size, height: size, background: person.color, fontSize: size * 0.45 }}
    >
      {person.emoji ?? initials(person.name)}
    </span>
  );
}
