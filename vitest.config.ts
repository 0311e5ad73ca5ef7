import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['marbles/**/*.test.ts', 'test/**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: '.vitest-report.json' }]],
    testTimeout: 20_000,
  },
});
