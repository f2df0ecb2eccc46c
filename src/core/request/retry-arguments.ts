/**
 * What a retry hands to `fetch`, so that no wrapper around `fetch` answers it with an earlier
 * attempt's response.
 *
 * @module
 */

/**
 * A retry's `fetch` arguments. Next.js memoizes identical GET and HEAD fetches during a render (by
 * URL, method and headers) unless the init carries a `signal`; its patched `fetch` folds an init
 * given beside a `Request` into that Request, so the signal reaches the memo only in the init of a
 * URL. A retry without a body is therefore sent as its URL with an init holding the request's
 * method, headers and signal: no header is added, and a first attempt stays memoized. A `cache` or
 * Next's `next` among the caller's options becomes `cache: 'no-store'`, which stops a cached read
 * (Next drops both `no-store` and a `revalidate` given together, with a warning, so `next` goes).
 */
export function retryArguments(request: Request, init: RequestInit): [Request | string, RequestInit] {
  const given =
    'cache' in init || 'next' in init ? { ...init, cache: 'no-store' as const, next: undefined } : init;
  const { url, signal, method, headers } = request;
  return request.body === null ? [url, { signal, ...given, method, headers }] : [request, given];
}
