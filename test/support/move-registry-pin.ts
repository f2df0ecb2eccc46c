/**
 * `npm run pin:registry [-- DATE]`: moves the registry pin (test/registry-pin.json) to DATE, an ISO
 * 8601 date or timestamp, or to the start of today (UTC) without one. Run `npm test` after: every
 * project the suite installs is installed again at the new pin.
 *
 * @module
 */
import { writeFileSync } from 'node:fs';
import { REPO_ROOT } from '../package/support/repo.js';
import { REGISTRY_PIN, REGISTRY_PIN_FILE } from './registry-pin.js';

const [given] = process.argv.slice(2);
const date = new Date(given ?? new Date().toISOString().slice(0, 10));
if (Number.isNaN(date.getTime()) || date.getTime() > Date.now()) {
  console.error(`pin:registry takes a date no later than today, like 2026-11-20; got "${given}"`);
  process.exit(2);
}
writeFileSync(
  `${REPO_ROOT}${REGISTRY_PIN_FILE}`,
  `${JSON.stringify({ before: date.toISOString() }, null, 2)}\n`,
);
console.log(
  `Registry pin moved from ${REGISTRY_PIN} to ${date.toISOString()} (${REGISTRY_PIN_FILE}); now run npm test.`,
);
