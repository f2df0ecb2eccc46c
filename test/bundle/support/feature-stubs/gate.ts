// Pacing and the cooldown left out: every request goes at once.
export class RequestGate {
  readonly waiting = 0;
  oldestWaitMs(): number {
    return 0;
  }
  pass(): Promise<string> {
    return Promise.resolve('');
  }
  settle(): void {}
  async released(): Promise<void> {}
}
