// Pacing and the cooldown left out: a store that grants everything.
export const scopeId = (): string => '';
export class InProcessRateLimitStore {
  acquire() {
    return { granted: true, lease: '' };
  }
  release(): void {}
}
export function createInProcessRateLimitStore() {
  return new InProcessRateLimitStore();
}
