// Admission left out: every call may wait.
export class Admission {
  learn(): void {}
  learnWait(): void {}
  earliestStartMs(): number {
    return 0;
  }
  refusal(): undefined {}
}
