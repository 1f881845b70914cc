/**
 * For the domain unit tests (the *.spec.ts files under libs/). Imports nothing but the kernel, so a spec that
 * uses it stays within the dependency rule.
 */
import { DomainError } from '@board/kernel';

/** The DomainError `work` throws; fails the test when it throws something else or nothing. */
export function refusal(work: () => unknown): DomainError {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('did not throw');
}
