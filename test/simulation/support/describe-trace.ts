/** A run's trace as lines to read, for a replayed failure: its calls, attempts, service windows and waits. */
import { serviceWindows } from './properties.js';
import type { Trace } from './run.js';

export function describeTrace(trace: Trace): string {
  const lines = [`run ended at ${trace.endedAt} ms after ${trace.steps} steps of the clock`];
  for (const call of trace.calls) {
    lines.push(
      `call ${call.id}: client ${call.plan.client} ${call.plan.operation}, arrived ${call.arrivedAt}, ` +
        `settled ${call.settledAt ?? 'never'} ${call.outcome ?? ''}${call.sent ? ` (sent ${call.sent})` : ''}` +
        `${call.abortedAt === undefined ? '' : `, aborted ${call.abortedAt}`}, bound ${JSON.stringify(call.bound)}`,
    );
  }
  for (const attempt of trace.attempts) {
    const request = trace.requests.find((candidate) => candidate.attempt === attempt.id);
    lines.push(
      `attempt ${attempt.id} of call ${attempt.call}: sent ${attempt.sentAt}, ended ${attempt.endedAt ?? '-'}, ` +
        `status ${attempt.status ?? '-'}${attempt.fault ? `, fault ${attempt.fault}` : ''}${attempt.silent ? ', silent' : ''}` +
        (request === undefined
          ? ', never reached the service'
          : `; service: ${request.status ?? '-'} ${request.code ?? ''} remaining ${request.remaining ?? '-'} reset ${request.reset ?? '-'}`),
    );
  }
  for (const window of serviceWindows(trace)) {
    lines.push(
      `window ${window.start}-${window.end}: ${window.requests.length} counted, ${window.spare} left`,
    );
  }
  for (const wait of trace.waits) {
    lines.push(`onWait at ${wait.at}: call ${wait.call ?? '?'} ${wait.reason} ${wait.waitMs} ms`);
  }
  return lines.join('\n');
}
