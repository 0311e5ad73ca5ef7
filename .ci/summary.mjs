// Prints the plain "N passed, N failed" line from vitest's JSON report; exits 1 on failures or on no tests.
import { existsSync, readFileSync } from 'node:fs';

const file = process.argv[2] ?? '.vitest-report.json';
if (!existsSync(file)) {
  console.log('no vitest report: the tests did not run (see the typecheck output above)');
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
const passed = report.numPassedTests ?? 0;
let failed = report.numFailedTests ?? 0;
// A suite that fails to load has no failed test but fails the run.
if (!report.success && failed === 0) failed = report.numFailedTestSuites || 1;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
