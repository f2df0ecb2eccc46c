// Browser safety left out: no CORS warning or hint.
export const hidesRateLimitHeaders = () => false;
export const hiddenHeadersWarning = () => '';
export const CORS_HINT = '';
