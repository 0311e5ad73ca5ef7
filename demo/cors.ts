/**
 * CORS on every route of the demo agent, so a browser page on another port (the web chat example)
 * can talk to it.
 */
import type { RequestHandler } from 'express';

/** The headers a browser may send to the agent (the last three: a card revalidated after its max-age). */
const ALLOWED_HEADERS = [
  'Content-Type',
  'A2A-Version',
  'A2A-Extensions',
  'X-A2A-Extensions',
  'Authorization',
  'If-None-Match',
  'If-Modified-Since',
  'Cache-Control',
];

/** Answers CORS preflights with 204 and marks every response as readable from any origin. */
export const cors: RequestHandler = (req, res, next) => {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS.join(', '));
  res.setHeader('Access-Control-Expose-Headers', 'A2A-Version, A2A-Extensions, X-A2A-Extensions');
  res.setHeader('Access-Control-Max-Age', '600');
  if (req.method === 'OPTIONS') {
    res.status(204).end();
    return;
  }
  next();
};
