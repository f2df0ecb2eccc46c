// Logging left out: no line is written.
export const describeRequest = () => '';
export const attemptLine = () => '';
export const retryLine = () => '';
export const waitLine = () => '';
