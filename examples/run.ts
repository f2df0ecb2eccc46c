/**
 * Runs one example by name: `npm run example -- <name>`.
 *
 * @module
 */
const examples = {
  quickstart: () => import('./quickstart.js'),
  errors: () => import('./errors.js'),
  'rate-limits': () => import('./rate-limits.js'),
  'custom-fetch': () => import('./custom-fetch.js'),
  fleet: () => import('./fleet.js'),
} as const;

const name = process.argv[2];
if (name !== undefined && Object.hasOwn(examples, name)) {
  await examples[name as keyof typeof examples]();
} else {
  const known = Object.keys(examples).join(', ');
  console.error(
    `${name === undefined ? 'Name an example' : `No example "${name}"`}: npm run example -- <${known}>`,
  );
  process.exitCode = 1;
}
