/**
 * A module worker started by the test page: it builds a client as the page asked and posts back
 * what happened, so that the guard is seen in a browser's worker as well as in its page.
 *
 * @module
 */
import { PetStoreClient } from '../../../src/index.js';

self.onmessage = (event: MessageEvent<{ apiKey: string | null; dangerouslyAllowBrowser: boolean }>) => {
  try {
    new PetStoreClient({ ...event.data, baseUrl: 'https://api.animal-store.test/v1' });
    postMessage({ built: true });
  } catch (error) {
    postMessage({ built: false, name: (error as Error).name, message: (error as Error).message });
  }
};
