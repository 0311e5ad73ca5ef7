import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['marbles/**/*.test.ts', 'test/**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: '.vitest-report.json' }]],
    testTimeout: 20_000,
    // Two files at a time: most tests wait on servers, browsers and processes, not on a core (the
    // default on two cores is one file at a time).
    maxWorkers: 2,
  },
});
