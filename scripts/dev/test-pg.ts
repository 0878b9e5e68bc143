/**
 * The route and service suites against PostgreSQL (issue 12): `npm test` runs this step, which
 * skips with a line when PostgreSQL is not installed; with REQUIRE_POSTGRES_TESTS=1 (CI) a missing
 * PostgreSQL fails instead. `npm run test:pg` runs the suites on PostgreSQL unconditionally.
 */
import { spawnSync } from 'node:child_process'
import { postgresAvailable } from '../../tests/setup/postgres'

if (!postgresAvailable()) {
  if (process.env.REQUIRE_POSTGRES_TESTS === '1') {
    console.error('PostgreSQL is required for this run: apt-get install -y postgresql')
    process.exit(1)
  }
  console.log('PostgreSQL is not installed (apt-get install -y postgresql): skipping the PostgreSQL run of the suites.')
  process.exit(0)
}
// Suites that never open the app's database run once, in the SQLite run: the photo readers, the
// digit-mutation check, the payout crash test (its own SQLite file), the layering, contrast and
// container checks. Everything that reads or writes through the app's database runs here again.
const DATABASE_FREE = [
  'app/ocr/**',
  'tests/receipt-digit-mutation.test.ts',
  'tests/payout-crash.test.ts',
  'tests/architecture.test.ts',
  'tests/contrast.test.ts',
  'tests/container.test.ts',
]
const exclude = process.argv.slice(2).length > 0 ? [] : DATABASE_FREE.flatMap((glob) => ['--exclude', glob])
const result = spawnSync('npx', ['vitest', 'run', ...exclude, ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, TEST_DB: 'postgres' },
})
process.exit(result.status ?? 1)
