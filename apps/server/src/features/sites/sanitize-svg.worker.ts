// The SVG sanitiser's thread: parsing and cleaning a drawing of up to 2 MB takes seconds of CPU
// (jsdom + DOMPurify), which on the main thread would stall every device, socket and command
// meanwhile; jsdom (half a second to load) is loaded only here, when a first drawing arrives.
import { parentPort } from 'node:worker_threads';
import { AppError } from '../../lib/errors';
import { sanitizeSvg } from './sanitize-svg';
import type { SanitizeRequest, SanitizeResponse } from './sanitize-svg.protocol';

const port = parentPort!;

port.on('message', (req: SanitizeRequest) => {
  let res: SanitizeResponse;
  try {
    res = { id: req.id, ok: true, result: sanitizeSvg(req.svg) };
  } catch (err) {
    const reason = err instanceof AppError ? (err.details as { reason?: string } | undefined)?.reason : undefined;
    res = { id: req.id, ok: false, invalid: reason ? { reason } : null, error: err instanceof Error ? err.message : String(err) };
  }
  port.postMessage(res);
});
