// Pacing and the cooldown left out: every request goes at once.
export class RequestGate {
  pass(): Promise<string> {
    return Promise.resolve('');
  }
  settle(): void {}
}
