export default {
  rootDir: '..',
  testMatch: ['<rootDir>/jest/**/*.test.mjs'],
  testEnvironment: 'jest-fixed-jsdom',
  transform: {},
};
