// Raw requests left out: client.request() refuses everything.
export function describeRawRequest(): never {
  throw new Error('client.request() is left out of this build');
}
export const endpoint = (path: string) => `/${path}`;
