import { describe, expect, it } from 'vitest';
import { ResponseValidationError } from '../../src/index.js';
import { API_KEY, setup } from './setup.js';

describe('ResponseValidationError', () => {
  it('keeps the body text as received, so an id beyond 2^53 shows unrounded beside the parsed body', async () => {
    const { client, store } = setup();
    const text = `[{"id":9007199254740993,"name":"Rex","categoryId":1,"status":"available"}]`;
    store.injectFault({ status: 200, body: text, headers: { 'Content-Type': 'application/json' } });
    const error = await client.listPets().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    const { body, text: raw } = error as ResponseValidationError;
    expect(raw).toBe(text);
    expect((body as { id: number }[])[0]?.id).toBe(9007199254740992);
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({ text });
  });

  it('keeps the text of a body that is not JSON, with the key redacted in both fields', async () => {
    const { client, store } = setup();
    store.injectFault({
      status: 200,
      body: `<html>key ${API_KEY}</html>`,
      headers: { 'Content-Type': 'application/json' },
    });
    const error = (await client.listPets().catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.text).toBe('<html>key [redacted]</html>');
    expect(error.body).toBe('<html>key [redacted]</html>');
  });
});
