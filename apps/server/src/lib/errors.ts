import { errorMessage, type ErrorCode } from '@agua/shared';

/** An expected failure: the error handler turns it into `{ error, code, details? }`. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
    message?: string,
  ) {
    super(message ?? errorMessage(code));
    this.name = 'AppError';
  }
}

export const badRequest = (code: ErrorCode = 'VALIDATION_FAILED', details?: unknown) => new AppError(400, code, details);
export const unauthorized = (code: ErrorCode = 'UNAUTHENTICATED') => new AppError(401, code);
export const forbidden = (code: ErrorCode = 'FORBIDDEN') => new AppError(403, code);
export const notFound = (code: ErrorCode = 'NOT_FOUND') => new AppError(404, code);
export const conflict = (code: ErrorCode, details?: unknown) => new AppError(409, code, details);
export const unprocessable = (code: ErrorCode = 'INVALID_VALUE', details?: unknown) => new AppError(422, code, details);
