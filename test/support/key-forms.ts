/** The forms an API key can take in text: how the tests look for it everywhere the SDK writes. */

/** `text` as it stands inside a JSON string. */
export const jsonEscaped = (text: string): string => JSON.stringify(text).slice(1, -1);

/** `text` with every character as a JSON `\uXXXX` escape. */
export const unicodeEscaped = (text: string): string =>
  [...text].map((character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

/** Every form of `key` a reader could recognize it in: raw, percent- and form-encoded, JSON-escaped. */
export function keyForms(key: string): string[] {
  const encoded = encodeURIComponent(key);
  return [
    key,
    encoded,
    encoded.replace(/%[0-9A-F]{2}/g, (percent) => percent.toLowerCase()),
    new URLSearchParams({ v: key }).toString().slice(2),
    jsonEscaped(key),
    jsonEscaped(key).replaceAll('/', '\\/'),
    unicodeEscaped(key),
    unicodeEscaped(key).toUpperCase().replaceAll('\\U', '\\u'),
  ];
}
