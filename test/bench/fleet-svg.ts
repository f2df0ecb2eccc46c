/**
 * A fleet run drawn as an SVG: time runs left to right, one lane per process, a tick per request
 * the store received (a red cross for a 429, a grey ring for one never answered), and a dashed line
 * where each rate-limit window opened.
 *
 * @module
 */
import type { RecordedRequest } from '../../src/testing/index.js';

/** What to draw. */
export interface FleetDrawing {
  readonly title: string;
  /** One line under the title: the run's figures. */
  readonly subtitle: string;
  /** The store's log of the run. */
  readonly requests: readonly RecordedRequest[];
  /** The lane of a request (e.g. its `x-fleet-worker` header). */
  readonly laneOf: (request: RecordedRequest) => string;
  /** When each window opened, by the store's clock. */
  readonly windowStarts: readonly number[];
  readonly windowMs: number;
}

const WIDTH = 900;
const LEFT = 110;
const RIGHT = 20;
const TOP = 64;
const LANE = 34;
const BOTTOM = 52;

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The SVG document. */
export function drawFleet(drawing: FleetDrawing): string {
  const lanes = [...new Set(drawing.requests.map(drawing.laneOf))].sort();
  const times = drawing.requests.map((request) => request.receivedAt);
  const start = Math.min(...times, ...drawing.windowStarts);
  const lastWindowEnd = Math.max(...drawing.windowStarts.map((at) => at + drawing.windowMs), ...times);
  const spanMs = Math.max(1, lastWindowEnd - start);
  const plotWidth = WIDTH - LEFT - RIGHT;
  const height = TOP + lanes.length * LANE + BOTTOM;
  const x = (at: number) => LEFT + ((at - start) / spanMs) * plotWidth;
  const laneY = (lane: string) => TOP + lanes.indexOf(lane) * LANE + LANE / 2;
  const parts: string[] = [];

  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="system-ui, sans-serif" font-size="12">`,
    `<title>${escapeXml(drawing.title)}</title>`,
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    `<text x="${LEFT}" y="22" font-size="15" font-weight="600" fill="#111">${escapeXml(drawing.title)}</text>`,
    `<text x="${LEFT}" y="42" fill="#444">${escapeXml(drawing.subtitle)}</text>`,
  );
  lanes.forEach((lane, index) => {
    const y = TOP + index * LANE;
    if (index % 2 === 0) {
      parts.push(`<rect x="${LEFT}" y="${y}" width="${plotWidth}" height="${LANE}" fill="#f4f6f8"/>`);
    }
    parts.push(
      `<text x="${LEFT - 10}" y="${y + LANE / 2 + 4}" text-anchor="end" fill="#333">${escapeXml(lane)}</text>`,
    );
  });
  const plotBottom = TOP + lanes.length * LANE;
  drawing.windowStarts.forEach((at, index) => {
    const left = x(at);
    parts.push(
      `<line x1="${left.toFixed(1)}" y1="${TOP - 6}" x2="${left.toFixed(1)}" y2="${plotBottom}" stroke="#7a8794" stroke-dasharray="4 3"/>`,
      `<text x="${(left + 3).toFixed(1)}" y="${TOP - 8}" fill="#7a8794" font-size="10">window ${index + 1}</text>`,
    );
  });
  for (const request of drawing.requests) {
    const cx = x(request.receivedAt);
    const cy = laneY(drawing.laneOf(request));
    if (request.status === 429) {
      parts.push(
        `<path d="M${(cx - 5).toFixed(1)} ${cy - 5}l10 10m0 -10l-10 10" stroke="#d1242f" stroke-width="2.2"/>`,
      );
    } else if (request.status === undefined) {
      parts.push(
        `<circle cx="${cx.toFixed(1)}" cy="${cy}" r="4" fill="none" stroke="#8c959f" stroke-width="1.5"/>`,
      );
    } else {
      parts.push(
        `<line x1="${cx.toFixed(1)}" y1="${cy - 8}" x2="${cx.toFixed(1)}" y2="${cy + 8}" stroke="#1a7f37" stroke-width="2"/>`,
      );
    }
  }
  const seconds = Math.ceil(spanMs / 1000);
  const step = seconds > 20 ? 5 : seconds > 8 ? 2 : 1;
  for (let second = 0; second <= seconds; second += step) {
    const left = x(start + second * 1000);
    if (left > WIDTH - RIGHT + 0.5) break;
    parts.push(
      `<line x1="${left.toFixed(1)}" y1="${plotBottom}" x2="${left.toFixed(1)}" y2="${plotBottom + 5}" stroke="#555"/>`,
      `<text x="${left.toFixed(1)}" y="${plotBottom + 18}" text-anchor="middle" fill="#555">${second} s</text>`,
    );
  }
  const legendY = height - 12;
  parts.push(
    `<line x1="${LEFT}" y1="${legendY - 8}" x2="${LEFT}" y2="${legendY + 4}" stroke="#1a7f37" stroke-width="2"/>`,
    `<text x="${LEFT + 8}" y="${legendY}" fill="#333">answered</text>`,
    `<path d="M${LEFT + 80} ${legendY - 7}l9 9m0 -9l-9 9" stroke="#d1242f" stroke-width="2.2"/>`,
    `<text x="${LEFT + 96}" y="${legendY}" fill="#333">429</text>`,
    `<line x1="${LEFT + 140}" y1="${legendY - 8}" x2="${LEFT + 140}" y2="${legendY + 4}" stroke="#7a8794" stroke-dasharray="4 3"/>`,
    `<text x="${LEFT + 148}" y="${legendY}" fill="#333">a rate-limit window opens</text>`,
    '</svg>',
  );
  return `${parts.join('\n')}\n`;
}
