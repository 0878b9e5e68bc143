import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'

// A throwaway PostgreSQL server for the tests (issue 12): Debian's packages (`apt-get install
// postgresql`), `initdb` + `pg_ctl` into a temporary directory, as the `postgres` user when run as
// root (PostgreSQL refuses to run as root). No docker here. PG_TEST_URL uses a running server instead.

export type TestPostgres = { url: string; stop: () => void }

/** The newest installed server binaries, or null when PostgreSQL is not installed. */
export function findPostgresBin(): string | null {
  const root = '/usr/lib/postgresql'
  if (!fs.existsSync(root)) return null
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))
  return versions.length ? path.join(root, versions[0], 'bin') : null
}

export function postgresAvailable(): boolean {
  return !!process.env.PG_TEST_URL || findPostgresBin() !== null
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0

/** Run a server binary, as `postgres` when we are root. */
function run(bin: string, args: string[]) {
  const command = isRoot() ? 'runuser' : bin
  const argv = isRoot() ? ['-u', 'postgres', '--', bin, ...args] : args
  const result = spawnSync(command, argv, { encoding: 'utf8' })
  if (result.status !== 0) throw new Error(`${path.basename(bin)} failed: ${result.stderr || result.stdout}`)
}

export async function startTestPostgres(): Promise<TestPostgres> {
  if (process.env.PG_TEST_URL) return { url: process.env.PG_TEST_URL, stop: () => {} }
  const bin = findPostgresBin()
  if (!bin) throw new Error('PostgreSQL is not installed: apt-get install -y postgresql')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recircle-pg-'))
  if (isRoot()) execFileSync('chown', ['postgres:postgres', dir])
  const data = path.join(dir, 'data')
  const port = await freePort()
  run(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-sync'])
  // Durability is not what these tests measure; fsync off keeps them fast on a small machine.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`
  run(path.join(bin, 'pg_ctl'), ['-D', data, '-o', options, '-l', path.join(dir, 'server.log'), '-w', 'start'])
  const stop = () => {
    try {
      run(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'])
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, stop }
}

export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl)
  url.pathname = `/${database}`
  return url.toString()
}

/** CREATE DATABASE name [TEMPLATE t]; a copy waits while another copy of the same template runs. */
export async function createDatabase(serverUrl: string, name: string, template?: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`create database "${name}"${template ? ` template "${template}"` : ''}`)
        break
      } catch (error) {
        // 55006: "source database is being accessed by other users" (a concurrent copy).
        if ((error as { code?: string }).code !== '55006' || attempt > 100) throw error
        await new Promise((r) => setTimeout(r, 50 + Math.random() * 100))
      }
    }
  } finally {
    await client.end()
  }
  return databaseUrl(serverUrl, name)
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    await client.query(`drop database if exists "${name}" with (force)`)
  } finally {
    await client.end()
  }
}
