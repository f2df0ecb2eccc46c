// Jest 30 in ESM mode: node --experimental-vm-modules node_modules/jest/bin/jest.js
/** @type {import('jest').Config} */
export default {
  // jsdom with Node's fetch, streams and TextEncoder put back, as msw advises (npm install -D jest-fixed-jsdom).
  testEnvironment: 'jest-fixed-jsdom',
  // The files are ES modules, run as they are written.
  transform: {},
  setupFilesAfterEnv: ['<rootDir>/jest.setup.mjs'],
};
