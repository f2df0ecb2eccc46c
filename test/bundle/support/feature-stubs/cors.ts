// Browser safety left out: no CORS warning or hint.
export const HEADERS_TO_EXPOSE = [];
export const hiddenHeadersWarning = () => undefined;
export const CORS_HINT = '';
