import { expect } from 'vitest';
import { AppError } from './errors';

/** The AppError a service call is refused with; fails the test when it succeeds or throws anything else. */
export async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}
