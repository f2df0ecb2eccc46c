import { expect, it } from 'vitest';
import * as z from 'zod';

// This file imports the SDK only inside the test, after the application's zod is set up.

it("leaves zod's global configuration alone: an application's messages read the same after importing the SDK", async () => {
  const own = z.object({ age: z.number().min(18), name: z.string() });
  z.config(z.locales.de());
  const messages = () => own.safeParse({ age: 3, name: 1 }).error?.issues.map((issue) => issue.message);
  const before = { config: { ...z.config() }, messages: messages() };

  const sdk = await import('../../src/index.js');
  sdk.ListPetsParamsSchema.safeParse({ limit: 500 });
  new sdk.PetStoreClient({ apiKey: 'sk-zod-config', baseUrl: 'https://animal-store.test/v1' });

  expect({ ...z.config() }).toEqual(before.config);
  expect(messages()).toEqual(before.messages);
  expect(before.messages).toEqual([
    'Zu klein: erwartet, dass number >=18 ist',
    'Ungültige Eingabe: erwartet string, erhalten Zahl',
  ]);
});
