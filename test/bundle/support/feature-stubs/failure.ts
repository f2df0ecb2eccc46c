// The error classes left out: a failure is passed on as ky reports it.
export const toPetStoreError = (error: unknown) => error;
