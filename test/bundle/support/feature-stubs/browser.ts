// Browser safety left out: never a browser, no guard.
export const isBrowser = () => false;
export const guardKeyInBrowser = () => {};
