/**
 * Admission in the browser build: a page's calls come from one user, not a server's crowd, so no
 * estimate is made and every call may wait; its bound still ends the wait. Same exports.
 *
 * @module
 */
export class Admission {
  learn(): void {}

  earliestStartMs(): number {
    return 0;
  }
}
