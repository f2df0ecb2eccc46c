// The refusals' errors left out: a refusal is a plain Error.
export const tooLong = () => new Error();
export const queueFull = () => new Error();
export const tooLate = () => new Error();
export const expired = () => new Error();
export const closedError = () => new Error();
export const isRefusal = () => false;
