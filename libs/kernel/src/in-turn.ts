import { DomainError } from './domain-error';

/**
 * A field read once, at the edge, whose refusal waits its turn. The contract checks some fields
 * only after stored state (a project key's clash, the property a rule names, the saved kind of a
 * chart), so a request DTO cannot refuse them when it reads the body: it keeps the reader's
 * answer, or the refusal it raised, and the domain takes it with `inTurn` where the contract
 * checks it. Nothing reads the field again; only the moment of the refusal moves.
 */
export type InTurn<T> = { readonly value: T } | { readonly refusal: DomainError };

/** Runs a reader now and keeps what it answered or the `DomainError` it raised (other errors propagate). */
export function readInTurn<T>(read: () => T): InTurn<T> {
  try {
    return { value: read() };
  } catch (error) {
    if (error instanceof DomainError) return { refusal: error };
    throw error;
  }
}

/** The value read, or the refusal kept for this moment. */
export function inTurn<T>(read: InTurn<T>): T {
  if ('refusal' in read) throw read.refusal;
  return read.value;
}

/** A value that passed (for commands built in code, and tests). */
export const readAlready = <T>(value: T): InTurn<T> => ({ value });

/** The value read, or undefined when the read was refused or nothing was sent: for a route that ignores a value another refuses. */
export function passedOrNone<T>(read: InTurn<T> | undefined): T | undefined {
  return read !== undefined && 'value' in read ? read.value : undefined;
}
