import { defineConfig } from 'vitest/config';

/** `npm run test:chaos`: the long chaos runs (test/**\/*.chaos.ts), one file at a time; `npm test` leaves them out. */
export default defineConfig({
  test: {
    include: ['test/**/*.chaos.ts'],
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 60_000,
  },
});
