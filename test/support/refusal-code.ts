import { DomainError } from '@board/kernel';

/** The code of the `DomainError` a promise is refused with (service specs); fails when it is not refused so. */
export async function refusalCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
  throw new Error('expected a refusal, the call answered');
}
