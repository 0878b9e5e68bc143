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
const result = spawnSync('npx', ['vitest', 'run', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, TEST_DB: 'postgres' },
})
process.exit(result.status ?? 1)
